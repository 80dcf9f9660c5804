/**
 * The worker's API object and its jobs, run directly in node (no Worker, no Comlink round trip):
 * ciphertext of any byte range equals the node:crypto reference, hashing follows the stream or
 * catches up after jumps, remote hashing over a MessageChannel gives the same digest, and
 * streaming decryption accepts any chunking. The real worker pool is exercised in e2e/crypto.spec.ts.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encryptedLength, ONE_SHOT_DIGEST_MAX_BYTES, TAG_LENGTH } from '../../crypto/index.ts';
import { decryptBuffer, encryptBuffer } from '../../server/crypto/index.ts';
import { createCryptoWorkerApi } from '../../workers/crypto-worker-api.ts';
import { bytes, deterministicBytes, expectCryptoError } from './helpers.ts';

const LARGE = ONE_SHOT_DIGEST_MAX_BYTES + 123_457;

/** A key of known bytes in the worker, through the one door raw key bytes have: a link's fragment. */
async function rawFileKeyIn(api: ReturnType<typeof createCryptoWorkerApi>, raw: Buffer): Promise<string> {
  return (await api.parseLinkFragment(`1:${encodeURIComponent(raw.toString('base64'))}`))['1']!;
}

async function setup(size: number, recordSize: number, hashPort?: MessagePort) {
  const api = createCryptoWorkerApi();
  const plain = deterministicBytes(size, size);
  const raw = deterministicBytes(32, 5);
  const iv = deterministicBytes(12, 6);
  const keyId = await rawFileKeyIn(api, raw);
  const opened = await api.openEncryption(new Blob([bytes(plain)]), {
    keyId,
    iv: iv.toString('base64'),
    recordSize,
    ...(hashPort ? { hashPort } : {}),
  });
  const expected = encryptBuffer(raw, iv, plain, recordSize);
  return { api, plain, raw, iv, opened, expected };
}

/**
 * What crossing to the main thread does to the worker's buffers: they are transferred (detached
 * in the worker). Emulated with structuredClone so a job that reuses a handed-out buffer fails here.
 */
async function read(api: ReturnType<typeof createCryptoWorkerApi>, jobId: string, start: number, end: number): Promise<Uint8Array[]> {
  const views = await api.readCiphertext(jobId, start, end);
  return structuredClone(views, { transfer: [...new Set(views.map((v) => v.buffer as ArrayBuffer))] });
}

async function readAll(api: ReturnType<typeof createCryptoWorkerApi>, jobId: string, total: number, step: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < total; offset += step) parts.push(...(await read(api, jobId, offset, offset + step)));
  return Buffer.concat(parts);
}

describe('encryption job', () => {
  it.each([
    ['small file, one-shot digest path', 100_000, 4096],
    ['large file, streamed and incrementally hashed', LARGE, 256 * 1024],
  ])('%s: sequential reads give the reference ciphertext and SHA-256', async (_name, size, recordSize) => {
    const { api, plain, opened, expected } = await setup(size, recordSize);
    expect(opened.encryptedLength).toBe(encryptedLength(size, recordSize));
    const sealed = await readAll(api, opened.jobId, opened.encryptedLength, 1_000_003);
    expect(sealed.equals(expected)).toBe(true);
    expect(await api.encryptionSha256(opened.jobId)).toBe(createHash('sha256').update(plain).digest('hex'));
    await api.closeEncryption(opened.jobId);
    await expectCryptoError(api.readCiphertext(opened.jobId, 0, 10), 'WORKER_FAILED');
  });

  it('any sequence of byte ranges (resume from any offset, jumps both ways) matches the reference', async () => {
    const { api, plain, opened, expected } = await setup(LARGE, 64 * 1024);
    const total = opened.encryptedLength;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 300_000 })), { minLength: 1, maxLength: 6 }), async (ranges) => {
        for (const [a, length] of ranges) {
          const start = a % total;
          const end = Math.min(total, start + length);
          const got = Buffer.concat(await read(api, opened.jobId, start, end));
          expect(got.equals(expected.subarray(start, end))).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
    // The hash is still right after all those jumps: the unhashed part is read again.
    expect(await api.encryptionSha256(opened.jobId)).toBe(createHash('sha256').update(plain).digest('hex'));
  });

  it('reading the ciphertext in order, in pieces that do not end on record boundaries, reads the file once', async () => {
    const plain = deterministicBytes(LARGE, 21);
    let slices = 0;
    const blob = new Blob([bytes(plain)]);
    // Only size and slice() are used for a large file; count the slices (one per read of the file).
    const counting = {
      size: blob.size,
      slice: (...args: Parameters<Blob['slice']>) => {
        slices++;
        return blob.slice(...args);
      },
    } as unknown as Blob;
    const api = createCryptoWorkerApi();
    const opened = await api.openEncryption(counting);
    const sealed = await readAll(api, opened.jobId, opened.encryptedLength, 1_000_003);
    expect(sealed.length).toBe(opened.encryptedLength);
    expect(await api.encryptionSha256(opened.jobId)).toBe(createHash('sha256').update(plain).digest('hex'));
    expect(slices).toBe(1);
  });

  it('a file stream without BYOB support (copy path) gives the same ciphertext and hash', async () => {
    const raw = deterministicBytes(32, 5);
    const iv = deterministicBytes(12, 6);
    const plain = deterministicBytes(LARGE, 22);
    const blob = new Blob([bytes(plain)]);
    const defaultStreamOnly = {
      size: blob.size,
      slice: (start?: number) => ({
        stream: () => {
          const reader = blob.slice(start).stream().getReader();
          return new ReadableStream<Uint8Array>({
            async pull(controller) {
              const { value, done } = await reader.read();
              if (done) controller.close();
              else controller.enqueue(value);
            },
          });
        },
      }),
    } as unknown as Blob;
    const api = createCryptoWorkerApi();
    const keyId = await rawFileKeyIn(api, raw);
    const opened = await api.openEncryption(defaultStreamOnly, { keyId, iv: iv.toString('base64') });
    const sealed = await readAll(api, opened.jobId, opened.encryptedLength, 999_999);
    expect(sealed.equals(encryptBuffer(raw, iv, plain))).toBe(true);
    expect(await api.encryptionSha256(opened.jobId)).toBe(createHash('sha256').update(plain).digest('hex'));
  });

  it('resuming after an interruption re-produces identical bytes', async () => {
    const { api, opened, expected, raw, iv } = await setup(LARGE, 256 * 1024);
    const firstAttempt = Buffer.concat(await read(api, opened.jobId, 0, 3_000_000));
    const resumeAt = 2_345_678; // what the server acknowledged before the connection dropped
    const resumed: Uint8Array[] = [];
    for (let offset = resumeAt; offset < opened.encryptedLength; offset += 777_777) {
      resumed.push(...(await read(api, opened.jobId, offset, offset + 777_777)));
    }
    const whole = Buffer.concat([firstAttempt.subarray(0, resumeAt), ...resumed]);
    expect(whole.equals(expected)).toBe(true);
    expect(decryptBuffer(raw, iv, whole).length).toBe(LARGE);
  });

  it('hashes on another worker over a MessageChannel with the same result', async () => {
    const hasherApi = createCryptoWorkerApi();
    const channel = new MessageChannel();
    await hasherApi.serveHashPort(channel.port1);
    const { api, plain, opened, expected } = await setup(LARGE, 128 * 1024, channel.port2);
    const sealed = await readAll(api, opened.jobId, opened.encryptedLength, 2_000_000);
    expect(sealed.equals(expected)).toBe(true);
    expect(await api.encryptionSha256(opened.jobId)).toBe(createHash('sha256').update(plain).digest('hex'));
  });

  it('a file shorter than its recorded size fails with SOURCE_CHANGED, not with short ciphertext', async () => {
    const api = createCryptoWorkerApi();
    const blob = new Blob([bytes(deterministicBytes(LARGE, 1))]);
    const shrunk = Object.defineProperty(blob.slice(0, LARGE - 10), 'size', { value: LARGE });
    const opened = await api.openEncryption(shrunk as Blob);
    await expectCryptoError(readAll(api, opened.jobId, opened.encryptedLength, 4_000_000), 'SOURCE_CHANGED');
  });

  it('hashBlob agrees with node for both paths', async () => {
    const api = createCryptoWorkerApi();
    for (const size of [0, 1000, LARGE]) {
      const data = deterministicBytes(size, 9);
      expect(await api.hashBlob(new Blob([bytes(data)]))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});
