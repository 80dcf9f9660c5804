import { randomBytes, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptBuffer } from '../../server/crypto/index.ts';
import type { CiphertextPieces } from './ciphertextPieces.ts';
import { createDecryptingStream } from './decryptingStream.ts';

/** Serves `data` in exactly the sizes asked and remembers them. */
function recordingPieces(data: Uint8Array): CiphertextPieces & { asked: number[] } {
  let at = 0;
  const asked: number[] = [];
  return {
    asked,
    read(size) {
      asked.push(size);
      if (at >= data.byteLength) return Promise.resolve(null);
      const piece = data.slice(at, at + size);
      at += piece.byteLength;
      return Promise.resolve(piece);
    },
    cancel: () => Promise.resolve(),
  };
}

async function fileKey(rawKey: Buffer): Promise<CryptoKey> {
  return (await webcrypto.subtle.importKey('raw', rawKey, { name: 'AES-GCM' }, false, ['decrypt'])) as CryptoKey;
}

describe('createDecryptingStream', () => {
  it('asks its source for the header, then whole records (with their tags), as many as half its bytes in flight hold, and decrypts them', async () => {
    const recordSize = 1024;
    const plain = randomBytes(3 * recordSize + 100);
    const rawKey = randomBytes(32);
    const iv = randomBytes(12);
    const source = recordingPieces(encryptBuffer(rawKey, iv, plain, recordSize));
    const key = await fileKey(rawKey);
    const stream = createDecryptingStream(source, { key, iv: iv.toString('base64'), plainSize: plain.length, maxInFlightBytes: 4 * 1040 });
    const out = Buffer.from(await new Response(stream).arrayBuffer());
    expect(out.equals(plain)).toBe(true);
    // 12 + 3 x 1040 + 116 bytes: the header, two records, a record and the short last one, the end.
    expect(source.asked).toEqual([12, 2080, 2080, 2080]);
  });

  it('passes on the records that authenticate before one that does not, though one piece holds them all', async () => {
    const recordSize = 1024;
    const plain = randomBytes(3 * recordSize + 100);
    const rawKey = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = encryptBuffer(rawKey, iv, plain, recordSize);
    cipher[12 + 1040 + 500]! ^= 0x01; // inside the second record
    const source = recordingPieces(cipher);
    const stream = createDecryptingStream(source, { key: await fileKey(rawKey), iv: iv.toString('base64'), plainSize: plain.length, maxInFlightBytes: 8 * 1040 });
    const reader = stream.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).equals(plain.subarray(0, recordSize))).toBe(true);
    await expect(reader.read()).rejects.toMatchObject({ code: 'INTEGRITY' });
    // The whole file came as one piece after the header (four records asked for, three there).
    expect(source.asked.slice(0, 2)).toEqual([12, 4160]);
  });
});
