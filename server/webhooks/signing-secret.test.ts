import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadWebhookSigningKey } from './signing-secret.ts';

let dataDir: string;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the server key file', () => {
  it('is created once when many loaders start at once (as processes sharing DATA_DIR): every loader gets the same key, no partial file is left', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sealdrop-key-'));
    const keys = await Promise.all(Array.from({ length: 16 }, () => loadWebhookSigningKey({ configured: null, dataDir })));
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
    expect(keys[0]!.length).toBe(32);
    expect(await readdir(dataDir)).toEqual(['webhook-signing.key']);
    expect((await stat(path.join(dataDir, 'webhook-signing.key'))).mode & 0o777).toBe(0o600);
  });

  it('uses WEBHOOK_SIGNING_KEY when it is set and writes no file', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sealdrop-key-'));
    const key = await loadWebhookSigningKey({ configured: 'k'.repeat(40), dataDir });
    expect(key.toString('utf8')).toBe('k'.repeat(40));
    expect(await readdir(dataDir)).toEqual([]);
  });
});
