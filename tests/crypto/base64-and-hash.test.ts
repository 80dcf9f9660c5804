import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createIncrementalSha256,
  decodeBase64,
  decodeBase64Exact,
  decodeBase64Lenient,
  encodeBase64,
  sha256OneShot,
} from '../../crypto/index.ts';
import { deterministicBytes } from './helpers.ts';

describe('base64', () => {
  it('matches node for every byte string and decodes back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(Buffer.from(decodeBase64(text)).equals(Buffer.from(bytes))).toBe(true);
        expect(Buffer.from(decodeBase64Lenient(Buffer.from(bytes).toString('base64url'))).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it.each(['A', 'AB', 'ABC', 'AB=C', 'A===', '====', 'AB C', 'AB\nC', 'ABC*', 'QR==', 'QUJ=', 'éAAA', 'AAAA='])('rejects %j as MALFORMED', (text) => {
    expect(() => decodeBase64(text)).toThrow(expect.objectContaining({ name: 'CryptoError', code: 'MALFORMED' }));
  });

  it('checks exact decoded lengths', () => {
    expect(decodeBase64Exact(encodeBase64(new Uint8Array(12)), 12, 'IV')).toHaveLength(12);
    expect(() => decodeBase64Exact(encodeBase64(new Uint8Array(11)), 12, 'IV')).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
  });
});

describe('SHA-256', () => {
  it('incremental hash-wasm and one-shot WebCrypto agree with node for any split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 5000 }), fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 10 }), async (size, pieces) => {
        const data = deterministicBytes(size, size);
        const expected = createHash('sha256').update(data).digest('hex');
        const hasher = await createIncrementalSha256();
        for (let offset = 0, i = 0; offset < size; i++) {
          const length = pieces[i % pieces.length]!;
          hasher.update(data.subarray(offset, offset + length));
          offset += length;
        }
        expect(hasher.digestHex()).toBe(expected);
        expect(await sha256OneShot(new Uint8Array(data))).toBe(expected);
      }),
      { numRuns: 50 },
    );
  });
});
