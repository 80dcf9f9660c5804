// Small files encrypted whole, a group per worker message (the upload's batch lane): each file's
// ciphertext opens with node:crypto's independent implementation of the format under the key
// unwrapped with the recipient's private key, its hash is the plaintext's SHA-256, and a file that
// cannot be read fails alone.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptBuffer } from '../server/crypto/file-format.ts';
import { generateRsaKeyPair, unwrapFileKey } from '../server/crypto/keys.ts';
import { CryptoError, importPublicKeySpki } from '../crypto/index.ts';
import { CryptoPool } from './pool.ts';
import { inProcessWorker } from './testing/inProcessWorker.ts';
import { encryptWholeFiles } from './whole-file-encryption.ts';

function sample(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed + (i >> 9)) & 0xff;
  return out;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A Blob that claims `size` bytes and whose read fails, or returns fewer bytes than it claims. */
function brokenBlob(size: number, read: () => Promise<ArrayBuffer>): Blob {
  const blob = new Blob([]);
  Object.defineProperty(blob, 'size', { value: size });
  Object.defineProperty(blob, 'arrayBuffer', { value: read });
  return blob;
}

describe('CryptoPool.encryptSmallFiles', () => {
  let pool: CryptoPool | undefined;
  afterEach(() => pool?.terminate());

  it('encrypts a group whole: each file opens with its unwrapped key and IV, hashes match, keys and IVs are fresh', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    const recipient = generateRsaKeyPair();
    const plains = [sample(0, 1), sample(1, 2), sample(64 * 1024 + 5, 3), sample(300 * 1024, 4)];
    const results = await pool.encryptSmallFiles(
      plains.map((plain) => new Blob([plain])),
      { recipientPublicKey: recipient.publicKeySpki },
    );
    expect(results).toHaveLength(plains.length);
    const keys = new Set<string>();
    const ivs = new Set<string>();
    results.forEach((result, index) => {
      if (!result.ok) throw result.error;
      const key = unwrapFileKey(recipient.privateKey, result.wrappedKey);
      keys.add(key.toString('hex'));
      ivs.add(result.iv);
      const opened = decryptBuffer(key, Buffer.from(result.iv, 'base64'), Buffer.from(result.ciphertext as Uint8Array));
      expect(opened.equals(Buffer.from(plains[index]!))).toBe(true);
      expect(result.sha256).toBe(sha256(plains[index]!));
    });
    expect(keys.size).toBe(plains.length);
    expect(ivs.size).toBe(plains.length);
  });

  it('writes every record of a multi-record file in order (small record size)', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    const recipient = generateRsaKeyPair();
    const plain = sample(1000, 5);
    const [result] = await pool.encryptSmallFiles([new Blob([plain])], { recipientPublicKey: recipient.publicKeySpki, recordSize: 64 });
    if (!result?.ok) throw new Error('expected the file to be encrypted');
    const key = unwrapFileKey(recipient.privateKey, result.wrappedKey);
    expect(decryptBuffer(key, Buffer.from(result.iv, 'base64'), Buffer.from(result.ciphertext as Uint8Array)).equals(Buffer.from(plain))).toBe(true);
  });

  it('refuses the whole group for a recipient key that is not a public key', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    await expect(pool.encryptSmallFiles([new Blob([sample(10, 1)])], { recipientPublicKey: 'not-a-key' })).rejects.toBeInstanceOf(CryptoError);
  });
});

describe('encryptWholeFiles (in the worker)', () => {
  it('fails only the file that cannot be read, or that changed while being read; the others keep their order', async () => {
    const recipient = await importPublicKeySpki(generateRsaKeyPair().publicKeySpki);
    const unreadable = brokenBlob(10, async () => {
      const error = new Error('The requested file could not be read');
      error.name = 'NotReadableError';
      throw error;
    });
    const shrunk = brokenBlob(10, async () => new ArrayBuffer(4));
    const good = sample(100, 9);
    const results = await encryptWholeFiles([unreadable, new Blob([good]), shrunk], recipient, 256 * 1024);
    expect(results.map((result) => result.ok)).toEqual([false, true, false]);
    expect(results[0]).toEqual({ ok: false, stage: 'encrypt', error: { name: 'NotReadableError', code: undefined, message: 'The requested file could not be read' } });
    expect(results[1]).toMatchObject({ ok: true, sha256: sha256(good) });
    expect(results[2]).toMatchObject({ ok: false, stage: 'encrypt', error: { code: 'SOURCE_CHANGED' } });
  });
});
