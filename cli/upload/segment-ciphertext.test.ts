// The resumable ciphertext of `npm run upload`: any slicing gives the bytes of the format (checked
// against server/crypto's whole-buffer encryption), every segment's digest is stored before the
// segment is encrypted, and a file whose bytes changed is never encrypted again under its key.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cipherLength, encryptBuffer } from '../../server/crypto/index.ts';
import { SEGMENT_BYTES, SegmentCiphertext, SourceChangedError } from './segment-ciphertext.ts';

/** Where segment 1's ciphertext starts: the header and 64 sealed records. */
const SEGMENT_CIPHER = 12 + 64 * (262_144 + 16);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fileWith(content: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-segments-'));
  dirs.push(dir);
  const file = path.join(dir, 'data.bin');
  fs.writeFileSync(file, content);
  return file;
}

function ledger(stored: string[] = [], onAppend?: (count: number) => void) {
  return {
    digests: stored,
    append: async (digest: string) => {
      stored.push(digest);
      onAppend?.(stored.length);
    },
  };
}

describe('SegmentCiphertext', () => {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const plain = randomBytes(2 * SEGMENT_BYTES + 300_001);
  const expected = encryptBuffer(key, iv, plain);

  it('any slicing gives the format\'s bytes; digests are stored before their segment is encrypted; the whole SHA-256', async () => {
    const handle = await open(fileWith(plain), 'r');
    const digests: string[] = [];
    const source = new SegmentCiphertext(handle, plain.length, key, iv, ledger(digests));
    expect(source.cipherSize).toBe(cipherLength(plain.length));
    const parts: Buffer[] = [];
    for (let start = 0, step = 7_777_777; start < source.cipherSize; start += step) {
      const part = await source.slice(start, start + step);
      // The segment holding the slice's last byte already has its digest stored.
      const lastRecord = Math.floor((Math.min(start + step, source.cipherSize) - 1 - 12) / (262_144 + 16));
      expect(digests.length).toBeGreaterThan(Math.floor(lastRecord / 64));
      parts.push(part);
    }
    expect(Buffer.concat(parts).equals(expected)).toBe(true);
    // Asked again (a PATCH sent again): the same bytes.
    expect((await source.slice(12, 100_000)).equals(expected.subarray(12, 100_000))).toBe(true);
    expect(digests).toHaveLength(3);
    expect(await source.sha256()).toBe(createHash('sha256').update(plain).digest('hex'));
    await handle.close();
  });

  it('a later run re-reads the stored segments into the hash and continues with identical ciphertext', async () => {
    const file = fileWith(plain);
    const digests: string[] = [];
    const first = await open(file, 'r');
    await new SegmentCiphertext(first, plain.length, key, iv, ledger(digests)).slice(0, SEGMENT_CIPHER + 10);
    await first.close();
    expect(digests).toHaveLength(2);
    const handle = await open(file, 'r');
    const again = new SegmentCiphertext(handle, plain.length, key, iv, ledger(digests));
    await again.verifyStoredSegments();
    const from = 5_000_000;
    expect((await again.slice(from, expected.length)).equals(expected.subarray(from))).toBe(true);
    expect(await again.sha256()).toBe(createHash('sha256').update(plain).digest('hex'));
    await handle.close();
  });

  it('a changed file: the check of stored segments fails, and a changed segment is never encrypted again under the key', async () => {
    const file = fileWith(plain);
    const digests: string[] = [];
    const first = await open(file, 'r');
    await new SegmentCiphertext(first, plain.length, key, iv, ledger(digests)).slice(0, 2 * SEGMENT_CIPHER);
    await first.close();

    const changed = Buffer.from(plain);
    changed[SEGMENT_BYTES + 5]! ^= 1;
    fs.writeFileSync(file, changed);
    const handle = await open(file, 'r');
    const verifying = new SegmentCiphertext(handle, plain.length, key, iv, ledger([...digests]));
    await expect(verifying.verifyStoredSegments()).rejects.toBeInstanceOf(SourceChangedError);
    const slicing = new SegmentCiphertext(handle, plain.length, key, iv, ledger([...digests]));
    await expect(slicing.slice(SEGMENT_CIPHER + 1000, SEGMENT_CIPHER + 2000)).rejects.toMatchObject({ code: 'SOURCE_CHANGED', kind: 'content' });
    // The unchanged first segment still slices.
    expect((await slicing.slice(0, 1000)).equals(expected.subarray(0, 1000))).toBe(true);
    await handle.close();

    fs.writeFileSync(file, plain.subarray(0, SEGMENT_BYTES));
    const short = await open(file, 'r');
    await expect(new SegmentCiphertext(short, plain.length, key, iv, ledger([...digests])).slice(2 * SEGMENT_CIPHER + 20, 2 * SEGMENT_CIPHER + 30)).rejects.toMatchObject({ kind: 'length' });
    await short.close();
  });
});
