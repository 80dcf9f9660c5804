// The upload sweep: removes what uploads leave behind when nobody finishes them.
// 1. tus sessions with no activity for UPLOAD_ABANDON_HOURS (never finished, or finished but never
//    completed): the row, then the bytes. A client coming back later gets 404 and starts over.
// 2. Expired upload grants and used-up verification codes.
// 3. Orphan blobs: anything under the blob root that no file record and no upload session points
//    at, once it is older than the abandon time (a multipart request records its files only when
//    the whole request has arrived, so a young unreferenced blob may still be on its way).
// Safe to run in several processes at once: every step is an idempotent delete.
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../db/repositories/index.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { removeTemporaryFile, walkBlobRoot, type DiskEntry } from './disk-blob-listing.ts';
import { TUS_BLOB_PREFIX, tusBlobKey } from './tus-server.ts';

export interface SweepDeps {
  repos: Repositories;
  blobs: BlobStore;
  blobRoot: string;
  abandonAfterMs: number;
  grantTtlMs: number;
  log: FastifyBaseLogger;
}

export interface SweepReport {
  abandonedUploads: number;
  orphanBlobs: number;
  expiredGrants: number;
  staleCodes: number;
}

const BATCH = 500;

export async function sweepUploads(deps: SweepDeps, now: number): Promise<SweepReport> {
  const { repos, blobs, blobRoot, abandonAfterMs, log } = deps;
  const before = now - abandonAfterMs;
  const report: SweepReport = { abandonedUploads: 0, orphanBlobs: 0, expiredGrants: 0, staleCodes: 0 };

  for (;;) {
    const sessions = await repos.uploadSessions.listInactiveSince(before, BATCH);
    for (const session of sessions) {
      await repos.uploadSessions.delete(session.id);
      await blobs.delete(tusBlobKey(session.id));
      report.abandonedUploads++;
    }
    if (sessions.length < BATCH) break;
  }

  report.expiredGrants = await repos.uploadGrants.deleteExpired(now);
  report.staleCodes = await repos.verificationCodes.deleteStale(now, now - deps.grantTtlMs);

  let batch: DiskEntry[] = [];
  const flush = async () => {
    report.orphanBlobs += await removeOrphans(deps, batch);
    batch = [];
  };
  for await (const entry of walkBlobRoot(blobRoot)) {
    if (entry.modifiedAt >= before) continue;
    if (entry.temporary) {
      await removeTemporaryFile(blobRoot, entry.key);
      report.orphanBlobs++;
      continue;
    }
    batch.push(entry);
    if (batch.length >= BATCH) await flush();
  }
  await flush();

  if (report.abandonedUploads + report.orphanBlobs > 0) log.info({ ...report }, 'upload sweep removed leftovers');
  return report;
}

async function removeOrphans({ repos, blobs }: SweepDeps, entries: DiskEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const keys = entries.map((entry) => entry.key);
  const uploadIds = keys
    .filter((key) => key.startsWith(`${TUS_BLOB_PREFIX}/`))
    .map((key) => key.slice(TUS_BLOB_PREFIX.length + 1));
  const [recorded, live] = await Promise.all([
    repos.files.existingBlobKeys(keys),
    repos.uploadSessions.existingIds(uploadIds),
  ]);
  let removed = 0;
  for (const key of keys) {
    if (recorded.has(key)) continue;
    if (key.startsWith(`${TUS_BLOB_PREFIX}/`) && live.has(key.slice(TUS_BLOB_PREFIX.length + 1))) continue;
    try {
      await blobs.delete(key);
      removed++;
    } catch {
      // A name the blob store would never have written (BLOB_BAD_KEY): not ours, left alone.
    }
  }
  return removed;
}
