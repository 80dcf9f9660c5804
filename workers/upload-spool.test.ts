// The upload spool (workers/ciphertext-spool.ts) through the real pool and worker API, on an OPFS
// held in memory (testing/fakeOpfs.ts): request bodies are files of the spool, and a spool that
// stalls or fills up costs a chunk's time limit at most, never the upload. A stalled
// createSyncAccessHandle() froze a 5 GiB upload for good before the time limit existed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_SPOOL_STALLS, type EncryptionSession } from './encryption-session.ts';
import { CryptoPool } from './pool.ts';
import { FakeOpfs, installFakeOpfs } from './testing/fakeOpfs.ts';
import { inProcessWorker } from './testing/inProcessWorker.ts';
import { readCiphertext } from './testing/sessionCiphertext.ts';

const MiB = 1024 * 1024;
const CHUNK = 1 * MiB;
const CALL_LIMIT_MS = 100;

function sample(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 131 + (i >> 11)) & 0xff;
  return out;
}

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

describe('upload spool', () => {
  let fs: FakeOpfs;
  let pool: CryptoPool;
  let session: EncryptionSession;
  let reference: Buffer;

  beforeEach(async () => {
    fs = new FakeOpfs();
    installFakeOpfs(fs, vi.stubGlobal);
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker, spoolCallLimitMs: CALL_LIMIT_MS });
    const file = new Blob([sample(6 * CHUNK + 999)]);
    session = await pool.openEncryption(file);
    // The same ciphertext from a session on the same key and IV, built in memory.
    const check = await pool.openEncryption(file, { reuse: { key: session.key, iv: session.iv } });
    reference = Buffer.from(await readCiphertext(check, 0, check.encryptedLength));
    await check.close();
  });

  afterEach(async () => {
    await session.close();
    pool.terminate();
    vi.unstubAllGlobals();
  });

  const chunk = (index: number) => [index * CHUNK, Math.min(session.encryptedLength, (index + 1) * CHUNK)] as const;
  const spoolFiles = () => [...fs.root.files().keys()].filter((path) => path.startsWith('upload-spool/'));

  it('sends bodies from files of the spool, keeping at most the last two', async () => {
    for (let index = 0; index < 4; index++) {
      const [start, end] = chunk(index);
      const body = await session.readBody(start, end);
      expect(body).toBeInstanceOf(File);
      expect((await bytesOf(body)).equals(reference.subarray(start, end))).toBe(true);
    }
    await vi.waitFor(() => expect(spoolFiles()).toHaveLength(2));
    // The page directory is looked up once (page: at open; worker: at its first chunk), not per chunk.
    expect(fs.calls.get('getDirectoryHandle')).toBe(4);
  });

  it('sends a chunk whose spool file never opens from memory, and goes on spooling the next', async () => {
    const release = fs.stallNextOpen();
    const started = Date.now();
    const [start, end] = chunk(0);
    const body = await session.readBody(start, end);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALL_LIMIT_MS - 5);
    expect(body).not.toBeInstanceOf(File);
    expect((await bytesOf(body)).equals(reference.subarray(start, end))).toBe(true);

    const [nextStart, nextEnd] = chunk(1);
    const next = await session.readBody(nextStart, nextEnd);
    expect(next).toBeInstanceOf(File);
    expect((await bytesOf(next)).equals(reference.subarray(nextStart, nextEnd))).toBe(true);

    // The handle that answers late is closed at once: its file keeps no lock.
    release();
    await vi.waitFor(() => expect([...fs.root.files().values()].every((file) => !file.locked)).toBe(true));
  });

  it('keeps spooling after stalls that are not in a row (the occasional lost answer)', async () => {
    for (let index = 0; index < 6; index++) {
      if (index % 2 === 0) fs.stallNextOpen();
      const [start, end] = chunk(index);
      const body = await session.readBody(start, end);
      expect(body instanceof File).toBe(index % 2 === 1);
      expect((await bytesOf(body)).equals(reference.subarray(start, end))).toBe(true);
    }
  });

  it(`stops spooling after ${MAX_SPOOL_STALLS} stalls in a row: the rest of the upload costs no more time limits`, async () => {
    for (let stall = 0; stall < MAX_SPOOL_STALLS; stall++) fs.stallNextOpen();
    for (let index = 0; index < MAX_SPOOL_STALLS; index++) {
      const [start, end] = chunk(index);
      expect((await bytesOf(await session.readBody(start, end))).equals(reference.subarray(start, end))).toBe(true);
    }
    const before = spoolFiles().length;
    const started = Date.now();
    for (let index = MAX_SPOOL_STALLS; index < 6; index++) {
      const [start, end] = chunk(index);
      const body = await session.readBody(start, end);
      expect(body).not.toBeInstanceOf(File);
      expect((await bytesOf(body)).equals(reference.subarray(start, end))).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(CALL_LIMIT_MS * 2);
    expect(spoolFiles().length).toBeLessThanOrEqual(before);
  });

  it('sends from memory once the disk is full, with the bytes intact', async () => {
    fs.diskFull = true;
    for (let index = 0; index < 3; index++) {
      const [start, end] = chunk(index);
      const body = await session.readBody(start, end);
      expect(body).not.toBeInstanceOf(File);
      expect((await bytesOf(body)).equals(reference.subarray(start, end))).toBe(true);
    }
  });

  it('reads the whole ciphertext identically through spool bodies, resumed mid-way', async () => {
    const parts: Buffer[] = [];
    for (let index = 0; index < 3; index++) parts.push(await bytesOf(await session.readBody(...chunk(index))));
    // tus resumes from an offset that is not a chunk boundary (a PATCH broke off half-way).
    const resumeAt = 3 * CHUNK - 4321;
    parts[2] = parts[2]!.subarray(0, resumeAt - 2 * CHUNK);
    parts.push(await bytesOf(await session.readBody(resumeAt, session.encryptedLength)));
    expect(Buffer.concat(parts).equals(reference)).toBe(true);
  });
});
