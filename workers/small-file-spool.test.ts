// Small files through the upload spool (workers/small-file-spool.ts), through the real pool and
// worker API on an OPFS held in memory (testing/fakeOpfs.ts): a group's ciphertexts are slices of
// one spool file that open with the recipient's key, the file goes once every slice is released,
// and a spool that stalls or fills up sends the group from memory with the same bytes.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decryptBuffer } from '../server/crypto/file-format.ts';
import { generateRsaKeyPair, unwrapFileKey } from '../server/crypto/keys.ts';
import { fileHead, fileTail } from '../contract/upload-multipart.ts';
import { MAX_SPOOL_STALLS } from './encryption-session.ts';
import { CryptoPool, type SmallFileEncryption } from './pool.ts';
import { FakeOpfs, installFakeOpfs } from './testing/fakeOpfs.ts';
import { inProcessWorker } from './testing/inProcessWorker.ts';
import { WHOLE_FILE_MAX_BYTES } from './whole-file-encryption.ts';

const CALL_LIMIT_MS = 100;

function sample(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 29 + seed + (i >> 8)) & 0xff;
  return out;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file the pool refuses to encrypt whole (too large for the batch lane): it fails alone. */
function refused(): Blob {
  return new Blob([new Uint8Array(WHOLE_FILE_MAX_BYTES + 1)]);
}

describe('small files through the upload spool', () => {
  let fs: FakeOpfs;
  let pool: CryptoPool;
  const recipient = generateRsaKeyPair();
  const spoolFiles = () => [...fs.root.files().keys()].filter((path) => path.startsWith('upload-spool/'));

  beforeEach(() => {
    fs = new FakeOpfs();
    installFakeOpfs(fs, vi.stubGlobal);
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker, spoolCallLimitMs: CALL_LIMIT_MS });
  });

  afterEach(() => {
    pool.terminate();
    vi.unstubAllGlobals();
  });

  const BOUNDARY = '----SealdropBatch-test';
  const framingOf = (count: number) => ({ boundary: BOUNDARY, files: Array.from({ length: count }, (_, i) => ({ name: `f${i}.bin`, relativePath: `dir/${i}` })) });
  const encrypt = (blobs: readonly Blob[], pool_ = pool) => pool_.encryptSmallFiles(blobs, { recipientPublicKey: recipient.publicKeySpki, framing: framingOf(blobs.length) });

  /**
   * Each file opens with its unwrapped key and hashes to its plaintext's SHA-256; a spooled file's
   * slice is its whole multipart part: head, ciphertext, fields (contract/upload-multipart.ts).
   */
  async function expectOpens(results: readonly SmallFileEncryption[], plains: ReadonlyArray<Uint8Array | null>): Promise<void> {
    expect(results).toHaveLength(plains.length);
    for (const [index, result] of results.entries()) {
      const plain = plains[index];
      if (plain === null || plain === undefined) {
        expect(result.ok).toBe(false);
        continue;
      }
      if (!result.ok) throw result.error;
      let ciphertext: Buffer;
      if (result.written) {
        const part = Buffer.from(await result.written.source.slice(result.written.start, result.written.end).arrayBuffer());
        const fields = { ...framingOf(plains.length).files[index]!, plainSize: plain.byteLength, encryptedKey: result.wrappedKey, iv: result.iv, sha256: result.sha256 };
        const head = fileHead(BOUNDARY, fields);
        const tail = fileTail(BOUNDARY, fields);
        expect(part.length).toBe(Buffer.byteLength(head) + result.cipherSize + Buffer.byteLength(tail));
        expect(part.subarray(0, Buffer.byteLength(head)).toString()).toBe(head);
        expect(part.subarray(part.length - Buffer.byteLength(tail)).toString()).toBe(tail);
        ciphertext = part.subarray(Buffer.byteLength(head), Buffer.byteLength(head) + result.cipherSize);
      } else {
        ciphertext = Buffer.from(result.ciphertext);
        expect(ciphertext.length).toBe(result.cipherSize);
      }
      const key = unwrapFileKey(recipient.privateKey, result.wrappedKey);
      expect(decryptBuffer(key, Buffer.from(result.iv, 'base64'), ciphertext).equals(Buffer.from(plain))).toBe(true);
      expect(result.sha256).toBe(sha256(plain));
    }
  }

  it("gives each file's ciphertext as a slice of one spool file, skipping a file that failed, and removes the file once every slice is released", async () => {
    const plains = [sample(1, 1), sample(40_000, 2), null, sample(0, 3), sample(300 * 1024, 4)];
    const results = await encrypt(plains.map((plain) => (plain === null ? refused() : new Blob([plain]))));
    for (const result of results) if (result.ok) expect(result.written).toBeDefined();
    await expectOpens(results, plains);
    expect(spoolFiles()).toHaveLength(1);

    const sent = results.filter((result) => result.ok);
    for (const result of sent.slice(0, -1)) {
      result.release();
      // Released twice (a batch given up after it was answered) counts once.
      result.release();
    }
    expect(spoolFiles()).toHaveLength(1);
    sent.at(-1)!.release();
    await vi.waitFor(() => expect(spoolFiles()).toHaveLength(0));
  });

  it('keeps the ciphertexts in memory when asked without framing (no multipart part to write)', async () => {
    const plains = [sample(3_000, 9)];
    const results = await pool.encryptSmallFiles(plains.map((plain) => new Blob([plain])), { recipientPublicKey: recipient.publicKeySpki });
    for (const result of results) if (result.ok) expect(result.written).toBeUndefined();
    await expectOpens(results, plains);
    expect(spoolFiles()).toHaveLength(0);
  });

  it('writes no spool file for a group whose every file failed', async () => {
    const results = await encrypt([refused(), refused()]);
    expect(results.map((result) => result.ok)).toEqual([false, false]);
    expect(spoolFiles()).toHaveLength(0);
  });

  it('sends a group whose spool file never opens from memory, and spools the next group again', async () => {
    const plains = [sample(5_000, 5), sample(70_000, 6)];
    const blobs = plains.map((plain) => new Blob([plain]));
    await encrypt([new Blob([sample(10, 0)])]); // the spool is open
    fs.stallNextOpen();
    const started = Date.now();
    const stalled = await encrypt(blobs);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALL_LIMIT_MS - 5);
    for (const result of stalled) if (result.ok) expect(result.written).toBeUndefined();
    await expectOpens(stalled, plains);

    const next = await encrypt(blobs);
    for (const result of next) if (result.ok) expect(result.written).toBeDefined();
    await expectOpens(next, plains);
  });

  it(`stops spooling small files after ${MAX_SPOOL_STALLS} stalls in a row, and at once when the disk is full`, async () => {
    const plains = [sample(2_000, 7)];
    const blobs = plains.map((plain) => new Blob([plain]));
    await encrypt(blobs);
    for (let stall = 0; stall < MAX_SPOOL_STALLS; stall++) {
      fs.stallNextOpen();
      await expectOpens(await encrypt(blobs), plains);
    }
    const started = Date.now();
    const after = await encrypt(blobs);
    expect(Date.now() - started).toBeLessThan(CALL_LIMIT_MS);
    for (const result of after) if (result.ok) expect(result.written).toBeUndefined();
    await expectOpens(after, plains);

    const other = CryptoPool.create({ size: 1, createWorker: inProcessWorker, spoolCallLimitMs: CALL_LIMIT_MS });
    try {
      fs.diskFull = true;
      await expectOpens(await encrypt(blobs, other), plains);
      fs.diskFull = false;
      const later = await encrypt(blobs, other);
      for (const result of later) if (result.ok) expect(result.written).toBeUndefined();
    } finally {
      other.terminate();
    }
  });
});
