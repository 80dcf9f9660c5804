/**
 * The browser implementation (crypto/, WebCrypto) and the independent node:crypto implementation
 * (server/crypto) must produce and accept exactly the same bytes.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decryptBytes,
  DEFAULT_RECORD_SIZE,
  encryptBytes,
  encryptedLength,
  RecordDecryptor,
  type PlainBytes,
} from '../../crypto/index.ts';
import { decryptBuffer, DecryptRecords, encryptBuffer, EncryptRecords } from '../../server/crypto/index.ts';
import { bytes, cipherBytes, deterministicBytes, fileSecrets } from './helpers.ts';

const R = DEFAULT_RECORD_SIZE;
const EDGE_SIZES = [0, 1, 15, 16, 17, R - 1, R, R + 1, 2 * R - 1, 2 * R, 2 * R + 1, 3 * R + 12345];

describe('file format vectors, both directions', () => {
  it.each(EDGE_SIZES)('plaintext of %i bytes (default record size)', async (size) => {
    const { raw, iv, key } = await fileSecrets(size);
    const plain = deterministicBytes(size, 1000 + size);
    const browser = Buffer.from(await encryptBytes(key, iv, bytes(plain)));
    const node = encryptBuffer(raw, iv, plain);
    expect(browser.length).toBe(encryptedLength(size));
    // Deterministic given key and IV: the two implementations agree byte for byte.
    expect(browser.equals(node)).toBe(true);
    expect(decryptBuffer(raw, iv, browser).equals(plain)).toBe(true);
    expect(Buffer.from(await decryptBytes(key, iv, cipherBytes(node))).equals(plain)).toBe(true);
  });

  it('agrees for random sizes and record sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 16, max: 300 }), fc.integer({ min: 0, max: 2000 }), fc.integer(), async (recordSize, size, seed) => {
        const { raw, iv, key } = await fileSecrets(seed);
        const plain = deterministicBytes(size, seed);
        const browser = Buffer.from(await encryptBytes(key, iv, bytes(plain), recordSize));
        expect(browser.equals(encryptBuffer(raw, iv, plain, recordSize))).toBe(true);
        expect(Buffer.from(await decryptBytes(key, iv, cipherBytes(browser))).equals(plain)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('known-answer vector: format v1 is frozen', async () => {
    // If this changes, the format changed: bump FORMAT_VERSION and keep reading version 1.
    const { raw, iv, key } = await fileSecrets(7);
    const plain = deterministicBytes(100, 8);
    const sealed = Buffer.from(await encryptBytes(key, iv, bytes(plain), 32));
    expect(sealed.subarray(0, 12).toString('hex')).toBe('5344525001000000' + '00000020');
    expect(sealed.length).toBe(12 + 100 + 4 * 16);
    expect(createHash('sha256').update(sealed).digest('hex')).toBe(
      createHash('sha256').update(encryptBuffer(raw, iv, plain, 32)).digest('hex'),
    );
    expect(createHash('sha256').update(sealed).digest('hex')).toBe('1cb4f4439fc76be9486052878359b2cb4ce9f31767f23019875c571b6a2a9f77');
  });
});

describe('types', () => {
  it('plaintext cannot be passed where ciphertext is expected, nor the reverse', async () => {
    const { key, iv } = await fileSecrets(1);
    const ciphertext = await encryptBytes(key, iv, new Uint8Array(10));
    const plaintext = await decryptBytes(key, iv, ciphertext);
    // @ts-expect-error decrypted bytes are PlainBytes, not CipherBytes
    await expect(decryptBytes(key, iv, plaintext)).rejects.toThrow();
    // @ts-expect-error ciphertext is not plaintext
    const notPlain: PlainBytes = ciphertext;
    expect(notPlain).toBe(ciphertext);
  });
});

describe('streaming', () => {
  it('decrypts ciphertext delivered in arbitrary pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 40 }),
        async (size, pieces) => {
          const { raw, iv, key } = await fileSecrets(size);
          const plain = deterministicBytes(size, size);
          const sealed = encryptBuffer(raw, iv, plain, 64);
          const decryptor = new RecordDecryptor(key, iv);
          const out: Uint8Array[] = [];
          let offset = 0;
          for (let i = 0; offset < sealed.length; i++) {
            const length = pieces[i % pieces.length]!;
            out.push(...(await decryptor.push(cipherBytes(sealed.subarray(offset, offset + length)))));
            offset += length;
          }
          out.push(...(await decryptor.finish()));
          expect(Buffer.concat(out).equals(plain)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('node streams encrypt and decrypt with any chunking', async () => {
    const { raw, iv, key } = await fileSecrets(3);
    const plain = deterministicBytes(5 * R + 777, 3);
    const encrypt = new EncryptRecords(raw, iv);
    const sealedParts: Buffer[] = [];
    encrypt.on('data', (chunk: Buffer) => sealedParts.push(chunk));
    const finished = new Promise((resolve) => encrypt.on('end', resolve));
    for (let offset = 0; offset < plain.length; offset += 100_000) encrypt.write(plain.subarray(offset, offset + 100_000));
    encrypt.end();
    await finished;
    const sealed = Buffer.concat(sealedParts);
    expect(Buffer.from(await decryptBytes(key, iv, cipherBytes(sealed))).equals(plain)).toBe(true);

    const decrypt = new DecryptRecords(raw, iv);
    const plainParts: Buffer[] = [];
    decrypt.on('data', (chunk: Buffer) => plainParts.push(chunk));
    const done = new Promise((resolve, reject) => {
      decrypt.on('end', resolve);
      decrypt.on('error', reject);
    });
    for (let offset = 0; offset < sealed.length; offset += 77_777) decrypt.write(sealed.subarray(offset, offset + 77_777));
    decrypt.end();
    await done;
    expect(Buffer.concat(plainParts).equals(plain)).toBe(true);
  });
});
