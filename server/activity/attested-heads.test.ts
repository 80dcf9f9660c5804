import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attestedHeads } from './attested-heads.ts';
import { checkpointToken, parseCheckpoint } from './checkpoint.ts';

const key = randomBytes(32);
const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(path.join(tmpdir(), 'sealdrop-heads-'));
  const target = path.join(dir, name);
  await writeFile(target, text);
  return target;
}

describe('checkpoints', () => {
  it('are refused when any signed part changes, or under another key', () => {
    const token = checkpointToken(key, { userId: 7, seq: 12, hash: hashA });
    expect(parseCheckpoint(key, token)).toEqual({ ok: true, checkpoint: { userId: 7, seq: 12, hash: hashA } });
    expect(parseCheckpoint(key, token.replace(':12:', ':13:'))).toEqual({ ok: false, reason: 'bad-signature' });
    expect(parseCheckpoint(key, token.replace('ac1:7:', 'ac1:8:'))).toEqual({ ok: false, reason: 'bad-signature' });
    expect(parseCheckpoint(randomBytes(32), token)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(parseCheckpoint(key, `${token}0`)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('attestedHeads', () => {
  it('reads the anchor file strictly and other texts leniently, joining quoted-printable lines', async () => {
    const anchor = await file(
      'anchor.log',
      [checkpointToken(key, { userId: 7, seq: 1, hash: hashA }), checkpointToken(key, { userId: 9, seq: 5, hash: hashA }), 'garbage', ''].join('\n'),
    );
    // A mail body in quoted-printable: the token is broken over lines ending in "=".
    const token = checkpointToken(key, { userId: 7, seq: 3, hash: hashB });
    const mail = await file('message.eml', `Subject: x\r\n\r\nActivity log checkpoint: ${token.slice(0, 60)}=\r\n${token.slice(60, 130)}=\r\n${token.slice(130)}\r\n`);
    const heads = await attestedHeads(key, 7, [
      { file: anchor, anchor: true },
      { file: mail, anchor: false },
    ]);
    expect(heads.count).toBe(2);
    expect(heads.newestSeq).toBe(3);
    expect([...heads.bySeq.entries()].map(([seq, hashes]) => [seq, [...hashes]])).toEqual([
      [1, [hashA]],
      [3, [hashB]],
    ]);
    expect(heads.bad).toEqual([{ file: anchor, line: 3, reason: 'malformed' }]);
  });

  it('keeps both hashes two signed checkpoints give for one seq (the chain was written anew there)', async () => {
    const anchor = await file('anchor.log', `${checkpointToken(key, { userId: 7, seq: 4, hash: hashA })}\n${checkpointToken(key, { userId: 7, seq: 4, hash: hashB })}\n`);
    const heads = await attestedHeads(key, 7, [{ file: anchor, anchor: true }]);
    expect([...heads.bySeq.get(4)!]).toEqual([hashA, hashB]);
  });
});
