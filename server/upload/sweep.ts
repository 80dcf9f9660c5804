// The upload sweep: removes what uploads leave behind when nobody finishes them.
// 1. tus sessions with no activity for UPLOAD_ABANDON_HOURS (never finished, or finished but never
//    completed): the row, then the bytes (on S3 the multipart upload is aborted).
//    A client coming back later gets 404 and starts over.
// 2. Expired upload grants, used-up verification codes, multipart idempotency keys older than
//    the abandon time, and the claims on folders' limits of multipart requests that died
//    (upload-admission.ts): given back to their folders.
// 2b. Retention (files/retention.ts): files of folders with retention_days, that many days after
//    their upload.
// 3. Orphans: anything in the blob store that no file record and no upload session points at, once
//    it is older than the abandon time (a multipart request records its files only when the whole
//    request has arrived, so a young unreferenced blob may still be on its way): blobs, the
//    stores' unfinished writes (a disk temporary file, an S3 multipart upload never completed) and
//    the S3 tus store's state objects of uploads that no longer exist.
// One process at a time: a run first takes the "upload-sweep" lease in the database, and a process
// that finds it held by another skips its run (every step is an idempotent delete anyway, so a run
// that outlives its lease does no harm, only work twice).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories } from '../db/repositories/index.ts';
import { applyRetention, type RetentionDeps } from '../files/retention.ts';
import { checkBlobKey, type BlobStore, type StoredEntry } from '../storage/blob-store.ts';
import { deleteExpiredUploadLeases } from './tus-locker.ts';
import { tusUploadOf, type TusStorage } from './tus-storage.ts';

export interface SweepDeps {
  repos: Repositories;
  blobs: BlobStore;
  tusStorage: TusStorage;
  abandonAfterMs: number;
  grantTtlMs: number;
  log: FastifyBaseLogger;
  /** This sweeper's name as a lease holder (sweepHolderName()): one per server instance. */
  holder: string;
  /** Told of files deleted by retention (activity log, webhook). */
  onRetentionDeleted: RetentionDeps['onDeleted'];
}

export interface SweepReport {
  /** False when another process held the sweep's lease: this run did nothing. */
  ran: boolean;
  abandonedUploads: number;
  /** Blobs and other stored objects nothing points at. */
  orphanBlobs: number;
  /** Unfinished writes removed: disk temporary files, aborted S3 multipart uploads. */
  unfinishedWrites: number;
  expiredGrants: number;
  staleCodes: number;
  /** Idempotency keys of multipart requests forgotten (older than the abandon time). */
  expiredBatchKeys: number;
  /** Claims of multipart requests that died, given back to their folders' limits. */
  expiredClaims: number;
  /** Files deleted because their folder's retention ran out. */
  retentionDeleted: number;
}

const BATCH = 500;
export const SWEEP_LEASE = 'upload-sweep';
/** Longer than any sweep takes; renewed after every batch. A holder that died frees it after this. */
const LEASE_MS = 15 * 60_000;
export function sweepHolderName(): string {
  return `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

export async function sweepUploads(deps: SweepDeps, now: number): Promise<SweepReport> {
  const { repos, log, holder } = deps;
  const report: SweepReport = {
    ran: false,
    abandonedUploads: 0,
    orphanBlobs: 0,
    unfinishedWrites: 0,
    expiredGrants: 0,
    staleCodes: 0,
    expiredBatchKeys: 0,
    expiredClaims: 0,
    retentionDeleted: 0,
  };
  // The lease is on the real clock (other processes'), whatever `now` the sweep works as of.
  const renew = () => repos.taskLeases.take(SWEEP_LEASE, holder, Date.now(), LEASE_MS);
  if (!(await renew())) {
    log.info('upload sweep skipped: another process is sweeping');
    return report;
  }
  report.ran = true;
  try {
    await sweepWithLease(deps, now, report, renew);
  } finally {
    await repos.taskLeases.release(SWEEP_LEASE, holder);
  }
  if (report.abandonedUploads + report.orphanBlobs + report.unfinishedWrites + report.expiredClaims + report.retentionDeleted > 0) {
    log.info({ ...report }, 'upload sweep removed leftovers');
  }
  return report;
}

async function sweepWithLease(deps: SweepDeps, now: number, report: SweepReport, renew: () => Promise<boolean>): Promise<void> {
  const { repos, blobs, tusStorage, abandonAfterMs } = deps;
  const before = now - abandonAfterMs;

  for (;;) {
    const sessions = await repos.uploadSessions.listInactiveSince(before, BATCH);
    for (const session of sessions) {
      // Claim, then discard: a completion may have turned this session into a file record (on the
      // same blob) since the listing, and then the bytes are that file's.
      if (!(await repos.uploadSessions.claimInactive(session.id, before))) continue;
      await tusStorage.discard(session.id);
      report.abandonedUploads++;
    }
    if (sessions.length < BATCH) break;
    await renew();
  }

  report.expiredGrants = await repos.uploadGrants.deleteExpired(now);
  report.staleCodes = await repos.verificationCodes.deleteStale(now, now - deps.grantTtlMs);
  // A client retries a batch within minutes; a key older than the abandon time is not repeated.
  report.expiredBatchKeys = await repos.uploadBatches.deleteRecordedBefore(before);
  // Per-upload leases (tus-locker.ts) of processes that died holding them; on the real clock.
  await deleteExpiredUploadLeases(repos.taskLeases, Date.now());
  for (;;) {
    const released = await repos.folderUsage.releaseExpiredClaims(now, BATCH);
    report.expiredClaims += released;
    if (released < BATCH) break;
  }

  report.retentionDeleted = await applyRetention(
    { repos, blobs, log: deps.log, onDeleted: deps.onRetentionDeleted },
    now,
    renew,
  );

  let batch: StoredEntry[] = [];
  const flush = async () => {
    await removeOrphans(repos, batch, report);
    batch = [];
    await renew();
  };
  for await (const entry of blobs.list()) {
    if (entry.modifiedAt >= before) continue;
    batch.push(entry);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
}

function isOurKey(key: string): boolean {
  try {
    checkBlobKey(key);
    return true;
  } catch {
    return false;
  }
}

async function removeOrphans(repos: Repositories, entries: StoredEntry[], report: SweepReport): Promise<void> {
  if (entries.length === 0) return;
  const uploadIds = entries.flatMap((entry) => tusUploadOf(entry.key)?.id ?? []);
  const blobKeys = entries.filter((entry) => !entry.unfinished).map((entry) => entry.key);
  // Sessions first, then file records, one after the other: a session only ever turns into a file
  // record (never back), so a blob whose session is gone by the first look is found recorded by
  // the second if a completion committed in between. Read the other way round (or at once), a
  // completion committing between the two reads would leave a just-completed file looking orphaned.
  const live = await repos.uploadSessions.existingIds(uploadIds);
  const recorded = await repos.files.existingBlobKeys(blobKeys);
  for (const entry of entries) {
    const upload = tusUploadOf(entry.key);
    if (upload && live.has(upload.id)) continue;
    if (!entry.unfinished) {
      // A name the blob store would never have written: not ours, left alone.
      if (!isOurKey(entry.key)) continue;
      if (!upload?.sidecar && recorded.has(entry.key)) continue;
    }
    await entry.remove();
    if (entry.unfinished) report.unfinishedWrites++;
    else report.orphanBlobs++;
  }
}
