// Retention: a folder with `retention_days` set has each file deleted that many days
// after its upload, by the upload sweep (one process at a time, under the sweep's lease). Each batch
// is deleted with RETURNING, which hands every row to exactly one caller even if two sweeps ran at
// once, so each file is deleted, logged and announced once: the row and the folder's usage in one
// transaction, then the blob (a blob that cannot be removed now is left to the orphan sweep), then
// the log line and `onDeleted` (the activity log entry and the files.deleted webhook). A process
// that dies between the commit and `onDeleted` loses that batch's entry, never deletes twice.
import type { FastifyBaseLogger } from 'fastify';
import type { ExpiredFile, Repositories } from '../db/repositories/index.ts';
import { DAY_MS } from '../folders/folder-rules.ts';
import type { BlobStore } from '../storage/blob-store.ts';
const FILE_BATCH = 500;
const FOLDER_BATCH = 200;

export interface RetentionFolder {
  id: number;
  ownerId: number;
  title: string;
  retentionDays: number;
}

export interface RetentionDeps {
  repos: Repositories;
  blobs: BlobStore;
  log: FastifyBaseLogger;
  /** Told of each batch deleted, after the commit (activity log, webhook); never throws. */
  onDeleted(folder: RetentionFolder, files: readonly ExpiredFile[]): Promise<void>;
}

/** When a file uploaded at `uploadTime` is due under `retentionDays` (what the files screen shows). */
export function deletionDue(uploadTime: number, retentionDays: number): number {
  return uploadTime + retentionDays * DAY_MS;
}

/** Deletes every file whose retention ran out by `now`; returns how many. `keepAlive` renews the sweep's lease. */
export async function applyRetention(deps: RetentionDeps, now: number, keepAlive: () => Promise<unknown>): Promise<number> {
  const { repos, blobs, log } = deps;
  let deleted = 0;
  let afterId = 0;
  for (;;) {
    const folders = await repos.folders.listWithRetention(afterId, FOLDER_BATCH);
    for (const folder of folders) {
      const uploadedBefore = now - folder.retentionDays * DAY_MS;
      for (;;) {
        const files = await repos.files.deleteUploadedBefore(folder.id, uploadedBefore, FILE_BATCH);
        if (files.length === 0) break;
        for (const file of files) {
          await blobs.delete(file.blobKey).catch((error: unknown) => {
            log.warn({ err: error, fileId: file.id }, 'could not delete the blob of a file past its retention; the orphan sweep will');
          });
        }
        log.info({ folderId: folder.id, files: files.length, retentionDays: folder.retentionDays }, 'retention deleted files');
        await deps.onDeleted(folder, files);
        deleted += files.length;
        await keepAlive();
        // Not `< FILE_BATCH`: a batch another process took part of comes back short while more
        // may be due; only an empty one says the folder is done.
      }
    }
    if (folders.length < FOLDER_BATCH) break;
    afterId = folders[folders.length - 1]!.id;
  }
  return deleted;
}
