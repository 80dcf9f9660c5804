/**
 * Liveness of the crypto pool (issue 26, defect 1): a worker that dies (fires `error`, fails to
 * read a message, or is terminated) must not leave the calls sent to it waiting forever. Each
 * pending call rejects with CryptoError WORKER_FAILED, the worker is replaced, and an encryption
 * whose hashing worker dies fails instead of sitting at 100 %. A worker that stops answering
 * without any event is found by the heartbeat, and a hash that stops advancing in a live worker by
 * sha256()'s watch. Workers are in-process doubles (workers/testing/dyingWorker.ts) running the real
 * worker API; the heartbeat and the watch run with short limits here (their defaults: about 30 s
 * and 60 s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ONE_SHOT_DIGEST_MAX_BYTES } from '../../crypto/index.ts';
import { CryptoPool } from '../../workers/index.ts';
import { dyingWorkers } from '../../workers/testing/dyingWorker.ts';
import { importRawFileKey } from '../../workers/testing/rawFileKey.ts';
import { ciphertextStream } from '../../workers/testing/sessionCiphertext.ts';
import { bytes, deterministicBytes, expectCryptoError } from './helpers.ts';

let pool: CryptoPool | undefined;
afterEach(() => pool?.terminate());

/** A call that never answers on a live worker: what a worker that dies mid-call leaves pending. */
function pendingHash(doubles: ReturnType<typeof dyingWorkers>): Promise<unknown> {
  for (const worker of doubles.workers) worker.hang('hashBlob');
  const pending = pool!.hashFile(new Blob([new Uint8Array(10)]));
  pending.catch(() => undefined);
  return pending;
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

describe('CryptoPool liveness', () => {
  it.each(['error', 'messageerror'] as const)('a call pending on a worker that fires %s rejects with WORKER_FAILED, and the worker is replaced', async (event) => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 1, createWorker: doubles.create });
    const pending = pendingHash(doubles);
    await expect.poll(() => doubles.workers[0]!.calls).toContain('hashBlob');
    doubles.workers[0]!.die(event);
    await expectCryptoError(pending, 'WORKER_FAILED');
    expect(doubles.workers[0]!.terminated).toBe(true);
    expect(doubles.workers).toHaveLength(2);
    // The fresh worker in its slot does the next job.
    expect(await pool.hashFile(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('terminate() rejects the calls still pending with WORKER_FAILED', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 2, createWorker: doubles.create });
    const pending = pendingHash(doubles);
    pool.terminate();
    await expectCryptoError(pending, 'WORKER_FAILED');
  });

  it('a key held only by a worker that died is WORKER_FAILED, not a wait', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 1, createWorker: doubles.create });
    const key = await importRawFileKey(pool, new Uint8Array(32).fill(3));
    doubles.workers[0]!.die('error');
    await expectCryptoError(pool.wrapFileKey(key, 'AAAA'), 'WORKER_FAILED');
  });

  it('an encryption whose hashing worker dies fails (sha256 rejects) and its job is closed in the encrypting worker', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 2, createWorker: doubles.create, uploadBodies: 'memory' });
    const plain = deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 3_000_000, 11);
    const session = await pool.openEncryption(new Blob([bytes(plain)]), { hashPlacement: 'other-worker' });
    const hasher = doubles.workers.find((w) => w.calls.includes('serveHashPort'))!;
    const encryptor = doubles.workers.find((w) => w.calls.includes('openEncryption'))!;
    expect(hasher).not.toBe(encryptor);
    hasher.die('error');
    const reading = drain(ciphertextStream(session)).then(() => session.sha256());
    await expectCryptoError(reading, 'WORKER_FAILED');
    await expect.poll(() => encryptor.calls).toContain('closeEncryption');
    await session.close();
    expect(pool.loads.every((load) => load === 0)).toBe(true);
  });

  it('a key released while it is being copied to another worker is not left in that worker', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 2, createWorker: doubles.create });
    const a = await importRawFileKey(pool, new Uint8Array(32).fill(1));
    // Keep a's holder busy so b is made on the other worker; a link of both gathers them on one.
    const [holderOfA] = pool.keyLocations(a);
    const busy = await pool.openEncryption(new Blob([bytes(deterministicBytes(40_000_000, 7))]), { hashPlacement: 'same-worker' });
    const b = await importRawFileKey(pool, new Uint8Array(32).fill(2));
    const [holderOfB] = pool.keyLocations(b);
    expect(holderOfB).not.toBe(holderOfA);
    const opens = doubles.workers.map((w) => w.gate('receiveKey'));
    const gathering = pool.formatLinkFragment([{ fileId: '1', key: a }, { fileId: '2', key: b }]);
    gathering.catch(() => undefined);
    // Released while the copy is on its way: the target has been asked to receive it, not yet done.
    await expect.poll(() => doubles.workers.flatMap((w) => w.calls)).toContain('receiveKey');
    const receiverIndex = doubles.workers.findIndex((w) => w.calls.includes('receiveKey'));
    const moving = receiverIndex === holderOfA ? b : a;
    await pool.releaseKeys([a, b]);
    for (const open of opens) open();
    await gathering.catch(() => undefined);
    await busy.close();
    expect([pool.keyLocations(a), pool.keyLocations(b)]).toEqual([[], []]);
    // The worker that received the copy was told to forget it too.
    await expect.poll(() => doubles.workers[receiverIndex]!.released).toContain(moving.id);
  });

  it('a worker that stops answering without any event (closed itself, thread blocked) fails its pending calls once it misses its pings, and is replaced', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 1, createWorker: doubles.create, heartbeat: { intervalMs: 10, missedLimit: 3 } });
    const pending = pendingHash(doubles);
    await expect.poll(() => doubles.workers[0]!.calls).toContain('hashBlob');
    doubles.workers[0]!.silence();
    await expectCryptoError(pending, 'WORKER_FAILED');
    expect(doubles.workers[0]!.terminated).toBe(true);
    expect(doubles.workers).toHaveLength(2);
    expect(await pool.hashFile(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('a busy worker that answers its pings is never taken for dead, however long its call takes', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 1, createWorker: doubles.create, heartbeat: { intervalMs: 5, missedLimit: 2 } });
    const open = doubles.workers[0]!.gate('hashBlob');
    const hashing = pool.hashFile(new Blob(['abc']));
    // Many more heartbeats than the limit pass while the call waits.
    await expect.poll(() => doubles.workers[0]!.calls.filter((call) => call === 'ping').length).toBeGreaterThanOrEqual(10);
    open();
    expect(await hashing).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(doubles.workers).toHaveLength(1);
  });

  it('sha256() of a session whose hashing stops advancing in a live worker rejects with WORKER_FAILED instead of waiting for good; the worker stays', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 1, createWorker: doubles.create, uploadBodies: 'memory', hashWatch: { pollMs: 10, stalledPolls: 3 } });
    const session = await pool.openEncryption(new Blob([bytes(deterministicBytes(ONE_SHOT_DIGEST_MAX_BYTES + 1000, 7))]));
    await drain(ciphertextStream(session));
    // The worker keeps answering (its event loop runs) but the digest never comes: a wedged read or WebCrypto call.
    doubles.workers[0]!.hang('encryptionSha256');
    await expectCryptoError(session.sha256(), 'WORKER_FAILED');
    expect(doubles.workers).toHaveLength(1);
    await session.close();
  });

  it('an idle worker that stopped is found while the pool is busy elsewhere, before work is given to it', async () => {
    const doubles = dyingWorkers();
    pool = CryptoPool.create({ size: 2, createWorker: doubles.create, heartbeat: { intervalMs: 10, missedLimit: 3 } });
    doubles.workers[1]!.silence();
    const open = doubles.workers[0]!.gate('hashBlob');
    const busy = pool.hashFile(new Blob(['abc']));
    await expect.poll(() => doubles.workers.length).toBe(3);
    expect(doubles.workers[1]!.terminated).toBe(true);
    expect(doubles.workers[0]!.terminated).toBe(false);
    open();
    expect(await busy).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
