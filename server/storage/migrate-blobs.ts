// `npm run admin -- migrate-blobs`: copies the blob of every file record from the disk store
// (DATA_DIR/blobs) into the configured S3 bucket under the same key, so that the database needs no
// change, and verifies each copy by reading it back: same size and same SHA-256 as the source.
// Streams both ways (a 5 GiB blob costs the S3 store's part buffers, never its size). Safe to run
// again: a blob already in the bucket with the right size and hash is left as it is. Unfinished
// resumable uploads are not moved (their uploaders start them again after the switch).
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Repositories } from '../db/repositories/index.ts';
import type { BlobStore } from './blob-store.ts';

export interface MigrationReport {
  copied: number;
  alreadyThere: number;
  bytes: number;
  /** Blobs that could not be migrated, with why (missing at the source, a mismatch after copying). */
  failed: Array<{ key: string; reason: string }>;
}

const PAGE = 500;

async function sha256Of(store: BlobStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await store.get(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies `key` from `source` to `target`; answers the source's SHA-256 and size as read. */
async function copy(source: BlobStore, target: BlobStore, key: string): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  const body = await source.get(key);
  const stored = target.put(key, hashing);
  await Promise.all([pipeline(body, hashing).catch((error: unknown) => { hashing.destroy(error as Error); throw error; }), stored]);
  return { hash: hash.digest('hex'), size: (await stored).size };
}

export async function migrateBlobs(
  repos: Repositories,
  source: BlobStore,
  target: BlobStore,
  progress: (line: string) => void = () => undefined,
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, alreadyThere: 0, bytes: 0, failed: [] };
  const seen = new Set<string>();
  let afterId = 0;
  for (;;) {
    const page = await repos.files.blobKeysAfter(afterId, PAGE);
    for (const { id, blobKey } of page) {
      afterId = id;
      if (seen.has(blobKey)) continue;
      seen.add(blobKey);
      const origin = await source.stat(blobKey);
      if (!origin) {
        report.failed.push({ key: blobKey, reason: 'missing from the disk store' });
        continue;
      }
      const existing = await target.stat(blobKey);
      if (existing && existing.size === origin.size && (await sha256Of(target, blobKey)) === (await sha256Of(source, blobKey))) {
        report.alreadyThere++;
        report.bytes += origin.size;
        continue;
      }
      const copied = await copy(source, target, blobKey);
      const back = await target.stat(blobKey);
      if (copied.size !== origin.size || back?.size !== origin.size || (await sha256Of(target, blobKey)) !== copied.hash) {
        report.failed.push({ key: blobKey, reason: 'the copy read back differs from the source' });
        continue;
      }
      report.copied++;
      report.bytes += origin.size;
      const done = report.copied + report.alreadyThere;
      if (done % 100 === 0) progress(`${done} blobs migrated and verified so far (${report.bytes} bytes)`);
    }
    if (page.length < PAGE) break;
  }
  return report;
}
