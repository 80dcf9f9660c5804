/**
 * CryptoPool logic in node, with in-process "workers" (the worker API exposed over a
 * MessageChannel with Comlink, as crypto.worker.ts does): errors arrive as CryptoError with their
 * code, keys move between workers, one large file's hashing goes to the other worker, streams
 * encrypt with node:crypto's results, and files decrypt through the download path (the pool posts
 * the key over a port to the service worker's decrypting stream, workers/download-service), where a
 * tampered or truncated stream errors with DownloadError INTEGRITY and no plaintext.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CryptoError, ONE_SHOT_DIGEST_MAX_BYTES } from '../../crypto/index.ts';
import {
  argon2Block,
  decryptBuffer,
  deriveAccountSecrets,
  encryptBuffer,
  generateRsaKeyPair,
  unwrapFileKey,
  wrapPrivateKey,
} from '../../server/crypto/index.ts';
import { DownloadError, CryptoPool } from '../../workers/index.ts';
import { receiveFileKeys } from '../../workers/download-service/keyInbox.ts';
import { decryptLikeADownload } from '../../workers/download-service/testing/decryptLikeADownload.ts';
import { inProcessWorker } from '../../workers/testing/inProcessWorker.ts';
import { bytes, deterministicBytes, expectCryptoError } from './helpers.ts';
import { importRawFileKey } from '../../workers/testing/rawFileKey.ts';
import { ciphertextStream, readCiphertext } from '../../workers/testing/sessionCiphertext.ts';

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return Buffer.concat(parts);
    parts.push(value);
  }
}

function pieces(data: Buffer, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(new Uint8Array(data.subarray(offset, offset + size)));
      offset += size;
    },
  });
}

let pool: CryptoPool | undefined;
afterEach(() => pool?.terminate());

describe('CryptoPool', () => {
  it('encrypts a large file on two workers (hash on the other one) exactly as node:crypto, and decrypts it', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const admin = generateRsaKeyPair();
    const plain = deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 1_000_000, 1);
    const session = await pool.openEncryption(new Blob([bytes(plain)]), { recipientPublicKey: admin.publicKeySpki });
    // Both workers are busy with this one file: encryption on one, hashing on the other.
    expect(pool.loads.every((load) => load > 0)).toBe(true);
    const sealed = await collect(ciphertextStream(session));
    expect(sealed.length).toBe(session.encryptedLength);
    expect(await session.sha256()).toBe(createHash('sha256').update(plain).digest('hex'));
    const rawKey = unwrapFileKey(admin.privateKey, session.wrappedKey!);
    const iv = Buffer.from(session.iv, 'base64');
    expect(sealed.equals(encryptBuffer(rawKey, iv, plain))).toBe(true);
    await session.close();
    expect(pool.loads).toEqual([0, 0]);

    const decrypted = await collect(await decryptLikeADownload(pool, session.key, session.iv, plain.length, pieces(sealed, 65_536)));
    expect(decrypted.equals(plain)).toBe(true);
  });

  it('streams from any offset (a resumed upload) with the same bytes', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const plain = deterministicBytes(3_000_000, 2);
    const session = await pool.openEncryption(new Blob([bytes(plain)]));
    const whole = await collect(ciphertextStream(session));
    const tail = await collect(ciphertextStream(session, 1_234_567));
    expect(tail.equals(whole.subarray(1_234_567))).toBe(true);
    expect(Buffer.from(await readCiphertext(session, 10, 300_000)).equals(whole.subarray(10, 300_000))).toBe(true);
    await session.close();
  });

  it('a tampered or truncated download errors the stream with DownloadError INTEGRITY', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const raw = deterministicBytes(32, 3);
    const iv = deterministicBytes(12, 4);
    const plain = deterministicBytes(2_000_000, 5);
    const sealed = encryptBuffer(raw, iv, plain);
    sealed[1_500_000] = sealed[1_500_000]! ^ 1;
    const key = await importRawFileKey(pool, new Uint8Array(raw));
    const download = (ciphertext: Buffer, pieceSize: number) => decryptLikeADownload(pool!, key, iv.toString('base64'), plain.length, pieces(ciphertext, pieceSize));
    for (const [ciphertext, pieceSize] of [
      [sealed, 100_000],
      [sealed.subarray(0, 1_000_000), 100_000], // cut inside a record
      [sealed.subarray(0, 12 + 2 * (65_536 + 16)), 50_001], // cut at a record boundary
    ] as const) {
      const error = await collect(await download(ciphertext, pieceSize)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DownloadError);
      expect((error as DownloadError).code).toBe('INTEGRITY');
    }
    expect(decryptBuffer(raw, iv, encryptBuffer(raw, iv, plain)).equals(plain)).toBe(true);
  });

  it('derives the login authentication secret in a worker, equal to the node reference (scheme 2)', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    const kdfParams = argon2Block({ memoryKiB: 65_536, passes: 3, lanes: 1, salt: deterministicBytes(16, 27) }).toString('base64');
    await expect(pool.deriveAuthSecret('login password', kdfParams, 'alice')).resolves.toBe(deriveAccountSecrets('login password', kdfParams).authSecret);
    await expectCryptoError(pool.deriveAuthSecret('login password', 'AQ==', 'alice'), 'MALFORMED');
  });

  it('unlocks the private key in one worker; keys made on two workers meet on one before they go to a download', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const admin = generateRsaKeyPair();
    const keyData = wrapPrivateKey(admin.privateKey, 'login password');
    const privateKey = await pool.unlockPrivateKey(keyData, 'login password');
    await expectCryptoError(pool.unlockPrivateKey(keyData, 'wrong'), 'WRONG_PASSWORD');

    const plain = deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 10, 6);
    const upload = await pool.openEncryption(new Blob([bytes(plain)]), { recipientPublicKey: admin.publicKeySpki });
    const sealed = await collect(ciphertextStream(upload));
    await upload.close();
    await pool.releaseKey(upload.key);

    const fileKey = await pool.unwrapFileKey(privateKey, upload.wrappedKey!);
    expect(pool.keyLocations(fileKey)).toEqual(pool.keyLocations(privateKey));
    // Keep the holder busy so a second key is made on the other worker: a ZIP of both files needs
    // both keys on one worker, so one of them must move there before the keys go to the download.
    const [holder] = pool.keyLocations(fileKey);
    const busy = await pool.openEncryption(new Blob([bytes(deterministicBytes(40_000_000, 7))]), { hashPlacement: 'same-worker' });
    expect(pool.loads[holder!]).toBeGreaterThan(0);
    const otherKey = await importRawFileKey(pool, new Uint8Array(32).fill(9));
    expect(pool.keyLocations(otherKey)).not.toEqual([holder]);
    const { port1, port2 } = new MessageChannel();
    const received = receiveFileKeys(port1, 5_000);
    await pool.sendFileKeys([fileKey, otherKey], port2);
    expect((await received).size).toBe(2);
    expect([pool.keyLocations(fileKey), pool.keyLocations(otherKey)]).toContainEqual([0, 1]);
    const decrypted = await collect(await decryptLikeADownload(pool, fileKey, upload.iv, plain.length, pieces(sealed, 300_000)));
    expect(decrypted.equals(plain)).toBe(true);
    await busy.close();

    await pool.releaseKey(fileKey);
    await expectCryptoError(decryptLikeADownload(pool, fileKey, upload.iv, plain.length, pieces(sealed, 300_000)), 'UNKNOWN_KEY');
  });

  it('link keys: fragment and password protection through the pool', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const a = await importRawFileKey(pool, new Uint8Array(32).fill(1));
    const b = await importRawFileKey(pool, new Uint8Array(32).fill(2));
    const fragment = await pool.formatLinkFragment([{ fileId: '1', key: a }, { fileId: '2', key: b }]);
    expect(fragment).toBe(`1:${Buffer.alloc(32, 1).toString('base64')},2:${Buffer.alloc(32, 2).toString('base64')}`);
    const protection = await pool.protectLinkKeys('link password', [{ fileId: '1', key: a }]);
    const opened = await pool.openLinkKeys('link password', protection.reencryptedKeys);
    expect(await pool.formatLinkFragment([{ fileId: '1', key: opened.get('1')! }])).toBe(fragment.split(',')[0]);
    expect(await pool.deriveLinkPasswordVerifier('link password', protection.kdfParams)).toBe(protection.verifier);
    await expectCryptoError(pool.openLinkKeys('other', protection.reencryptedKeys), 'WRONG_PASSWORD');
    await expectCryptoError(pool.parseLinkFragment('1:short'), 'MALFORMED');
  });

  it('releaseKeys forgets every key it is given; one release that fails neither rejects nor keeps the others', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const raw = (fill: number) => Buffer.alloc(32, fill).toString('base64');
    const keys = [...(await pool.parseLinkFragment(`1:${raw(1)},2:${raw(2)},3:${raw(3)}`)).values()];
    const release = vi.spyOn(pool, 'releaseKey');
    release.mockImplementationOnce(() => Promise.reject(new CryptoError('WORKER_FAILED', 'the worker holding this key failed')));
    await expect(pool.releaseKeys(keys)).resolves.toBeUndefined();
    expect(release).toHaveBeenCalledTimes(3);
    for (const key of keys.slice(1)) {
      expect(pool.keyLocations(key)).toEqual([]);
      await expectCryptoError(pool.formatLinkFragment([{ fileId: '2', key }]), 'UNKNOWN_KEY');
    }
  });

  it('a bad recipient public key fails the open with MALFORMED and leaves nothing behind', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const file = new Blob([bytes(deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 5, 8))]);
    await expectCryptoError(pool.openEncryption(file, { recipientPublicKey: 'AAAA' }), 'MALFORMED');
    expect(pool.loads).toEqual([0, 0]);
  });

  it('several files spread over the workers', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const files = [1, 2, 3, 4].map((seed) => deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + seed, seed));
    const sessions = await Promise.all(files.map((f) => pool!.openEncryption(new Blob([bytes(f)]))));
    const loads = pool.loads;
    expect(Math.min(...loads) / Math.max(...loads)).toBeGreaterThan(0.5);
    const hashes = await Promise.all(sessions.map(async (s) => (await collect(ciphertextStream(s)), s.sha256())));
    expect(hashes).toEqual(files.map((f) => createHash('sha256').update(f).digest('hex')));
    await Promise.all(sessions.map((s) => s.close()));
  });
});
