// The pool's side of resuming after a reload: a file key goes out only wrapped under the
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

  it('the content signature of the sent part: the same bytes reopened vouch for it, a byte changed anywhere in it (size kept) is SOURCE_CHANGED, a change after it is not', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const plain = sample(9 * 1024 * 1024 + 123);
    const file = new Blob([plain]);
    const first = await pool.openEncryption(file);
    const sentEnd = 5 * 1024 * 1024 + 7;
    await readCiphertext(first, 0, sentEnd);
    const signature = await first.signSent(sentEnd);
    // The records holding ciphertext byte 5 MiB + 6 (header and tags included): 20 of 256 KiB.
    expect(signature.records).toBe(20);
    await first.close();

    const reopen = async (bytes: Uint8Array<ArrayBuffer>, recordSize?: number) =>
      pool!.openEncryption(new Blob([bytes]), { reuse: { key: first.key, iv: first.iv }, ...(recordSize ? { recordSize } : {}) });

    const same = await reopen(plain);
    // It vouches for the whole of its last record, which the sent part reaches into.
    expect(await same.verifySent(signature)).toBe(12 + 20 * (256 * 1024 + 16));
    // A session that encrypted those records only for the check signs the same as one that read them in order.
    expect(await same.signSent(sentEnd)).toEqual(signature);
    await same.close();

    for (const at of [0, 256 * 1024, sentEnd - 100]) {
      const edited = plain.slice();
      edited[at]! ^= 1;
      const session = await reopen(edited);
      const failure = await session.verifySent(signature).catch((error: unknown) => error);
      expect(failure, `a byte changed at ${at}`).toBeInstanceOf(CryptoError);
      expect((failure as CryptoError).code).toBe('SOURCE_CHANGED');
      await session.close();
    }

    // Another record size puts other bytes under the same nonces: never vouched for.
    const resized = await reopen(plain, 64 * 1024);
    expect(((await resized.verifySent(signature).catch((error: unknown) => error)) as CryptoError).code).toBe('SOURCE_CHANGED');
    await resized.close();

    const after = plain.slice();
    after[6 * 1024 * 1024]! ^= 1;
    const later = await reopen(after);
    await expect(later.verifySent(signature)).resolves.toBeGreaterThanOrEqual(sentEnd);
    await later.close();
  });
});
