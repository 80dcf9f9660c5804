// Large test inputs on disk under .tmp (never in one Buffer): deterministic plaintext, its node:crypto
// ciphertext and SHA-256, streamed from and to disk.
import { createCipheriv, createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, readSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EncryptRecords } from '../../server/crypto/index.ts';

const CHUNK = 4 * 1024 * 1024;

/** Writes `size` bytes of AES-CTR keystream (fast, incompressible, reproducible from `seed`). */
export async function ensurePlainFile(path: string, size: number, seed: number): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.size === size) return;
  await mkdir(dirname(path), { recursive: true });
  const key = createHash('sha256').update(`plain-file:${seed}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(CHUNK);
  async function* keystream() {
    for (let written = 0; written < size; written += CHUNK) yield cipher.update(zeros.subarray(0, Math.min(CHUNK, size - written)));
  }
  await pipeline(keystream(), createWriteStream(path));
}

export async function sha256OfFile(path: string, start = 0, end?: number): Promise<string> {
  const hash = createHash('sha256');
  if (end !== undefined && end <= start) return hash.digest('hex');
  await pipeline(createReadStream(path, { start, ...(end !== undefined ? { end: end - 1 } : {}), highWaterMark: CHUNK }), hash);
  return hash.digest('hex');
}

/** node:crypto encryption of a file on disk, streamed, with the given raw key and IV. */
export async function encryptFileWithNode(plainPath: string, sealedPath: string, key: Buffer, iv: Buffer): Promise<void> {
  await pipeline(createReadStream(plainPath, { highWaterMark: CHUNK }), new EncryptRecords(key, iv), createWriteStream(sealedPath));
}

/** SHA-256 of node:crypto's ciphertext for a file, without writing it, optionally of a byte range. */
export async function sha256OfNodeCiphertext(plainPath: string, key: Buffer, iv: Buffer, range?: [number, number]): Promise<string> {
  const hash = createHash('sha256');
  let position = 0;
  const [start, end] = range ?? [0, Number.POSITIVE_INFINITY];
  const encrypt = new EncryptRecords(key, iv);
  encrypt.on('data', (chunk: Buffer) => {
    const from = Math.max(start, position);
    const to = Math.min(end, position + chunk.length);
    if (to > from) hash.update(chunk.subarray(from - position, to - position));
    position += chunk.length;
  });
  await pipeline(createReadStream(plainPath, { highWaterMark: CHUNK }), encrypt);
  return hash.digest('hex');
}

/**
 * Reads the files once, so that the browser then reads them from the page cache. A benchmark that
 * compares reading a File with a pipeline that reads one needs both to read from memory: a VM may
 * page out cache the guest has not touched for a while (docs/operations.md, "Free page reporting
 * and cache paged out"), and a partly evicted input makes one measurement pay for the disk and not
 * the other.
 */
export function warmPageCache(paths: readonly string[]): void {
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      while (readSync(fd, buffer, 0, CHUNK, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}
