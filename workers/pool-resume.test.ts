// The pool's side of resuming after a reload (issue 13): a file key goes out only wrapped under the
// storage key, comes back into a worker, and a session reopened with it and the stored IV produces
// ciphertext byte-identical to the first session's, from any offset.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CryptoError } from '../crypto/index.ts';
import { CryptoPool } from './pool.ts';
import { inProcessWorker } from './testing/inProcessWorker.ts';
import { readCiphertext } from './testing/sessionCiphertext.ts';

function sample(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + (i >> 9)) & 0xff;
  return out;
}

describe('CryptoPool: file keys across a reload', () => {
  let pool: CryptoPool | undefined;
  afterEach(() => pool?.terminate());

  it('a reimported key with the stored IV re-produces the same ciphertext from an offset, and the same hash', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const plain = sample(9 * 1024 * 1024 + 123);
    const file = new Blob([plain]);
    const storageKey = await pool.createStorageKey();
    expect(storageKey.extractable).toBe(false);

    const first = await pool.openEncryption(file);
    const whole = await readCiphertext(first, 0, first.encryptedLength);
    const stored = await pool.exportFileKeyForStorage(first.key, storageKey, 'entry');
    await first.close();
    await pool.releaseKey(first.key);

    const key = await pool.importStoredFileKey(stored, storageKey, 'entry');
    const resumed = await pool.openEncryption(file, { reuse: { key, iv: first.iv } });
    expect(resumed.iv).toBe(first.iv);
    expect(resumed.key).toBe(key);
    const from = 5 * 1024 * 1024 + 7;
    const tail = await readCiphertext(resumed, from, resumed.encryptedLength);
    expect(Buffer.from(tail).equals(Buffer.from(whole.subarray(from)))).toBe(true);
    expect(await resumed.sha256()).toBe(createHash('sha256').update(plain).digest('hex'));
    await resumed.close();
  });

  it('a stored key under another entry name does not open', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    const storageKey = await pool.createStorageKey();
    const session = await pool.openEncryption(new Blob([sample(100)]));
    const stored = await pool.exportFileKeyForStorage(session.key, storageKey, 'entry-a');
    const failure = await pool.importStoredFileKey(stored, storageKey, 'entry-b').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CryptoError);
    expect((failure as CryptoError).code).toBe('INTEGRITY');
  });
});
