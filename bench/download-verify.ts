// Checks what the browser wrote, without reading a multi-GiB file into memory: the SHA-256 of a
// saved file (a saved ZIP's entries are hashed by tests/support/zip.ts).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

export async function sha256OfRange(path: string, start = 0, length?: number): Promise<string> {
  const hash = createHash('sha256');
  if (length === 0) return hash.digest('hex');
  await pipeline(createReadStream(path, { start, ...(length !== undefined ? { end: start + length - 1 } : {}), highWaterMark: 4 * 1024 * 1024 }), hash);
  return hash.digest('hex');
}
