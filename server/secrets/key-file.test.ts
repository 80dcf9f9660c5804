import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadActivityChainKey } from '../activity/chain-key.ts';
import { loadWebhookSigningKey } from '../webhooks/signing-secret.ts';

let dataDir: string;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('moving a key file into a setting (several processes on PostgreSQL need the setting)', () => {
  it('"base64url:" and the file\'s content gives the same key as the file, for the webhook and the activity key', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sealdrop-key-'));
    const fromWebhookFile = await loadWebhookSigningKey({ configured: null, dataDir });
    const fromChainFile = await loadActivityChainKey({ configured: null, dataDir });
    expect(fromChainFile.equals(fromWebhookFile)).toBe(false);
    const webhookSetting = `base64url:${(await readFile(path.join(dataDir, 'webhook-signing.key'), 'utf8')).trim()}`;
    const chainSetting = `base64url:${(await readFile(path.join(dataDir, 'activity-chain.key'), 'utf8')).trim()}`;
    expect((await loadWebhookSigningKey({ configured: webhookSetting, dataDir })).equals(fromWebhookFile)).toBe(true);
    expect((await loadActivityChainKey({ configured: chainSetting, dataDir })).equals(fromChainFile)).toBe(true);
    // Any other value is the key's text itself, as before.
    expect((await loadActivityChainKey({ configured: 'k'.repeat(40), dataDir })).toString('utf8')).toBe('k'.repeat(40));
  });
});
