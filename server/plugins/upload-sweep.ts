// Runs the upload sweep (server/upload/sweep.ts) every UPLOAD_SWEEP_INTERVAL_MINUTES, on a timer
// that never keeps the process alive, and exposes it as `app.sweepUploads(now?)` for tests and
// operators. Runs do not overlap in a process, nor across processes (the sweep takes a database
// lease); a failed run is logged and the next one tries again. Files deleted by retention are
// recorded in their owner's activity log and announced as files.deleted (reason "retention").
// Each run first lets the ballast go when the disk is short (storage/ballast.ts): the sweep's own
// writes (its lease, the rows it deletes) need room to free any; a run that still finds no room
// fails with DiskFullError rather than the database's raw error.
import type { ExpiredFile } from '../db/repositories/index.ts';
import type { RetentionFolder } from '../files/retention.ts';
import { DiskFullError, isNoSpaceError } from '../storage/storage-errors.ts';
import { sweepHolderName, sweepUploads, type SweepReport } from '../upload/sweep.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One sweep pass as of `now` (default: the app clock). */
    sweepUploads(now?: number): Promise<SweepReport>;
  }
}

export const uploadSweepPlugin = globalPlugin('upload-sweep', async (app) => {
  const deps = {
    repos: app.repos,
    blobs: app.blobs,
    tusStorage: app.uploads.tusStorage,
    abandonAfterMs: app.config.upload.abandonAfterMs,
    grantTtlMs: app.config.upload.grantTtlMs,
    log: app.log,
    holder: sweepHolderName(),
    // The activity log and webhooks are registered after this plugin; they exist by the first run.
    onRetentionDeleted: async (folder: RetentionFolder, files: readonly ExpiredFile[]) => {
      const fileIds = files.map((file) => file.id);
      await app.activity.record(folder.ownerId, 'files.retention_deleted', {
        folderId: folder.id,
        details: { title: folder.title, file_ids: fileIds, retention_days: folder.retentionDays },
      });
      await app.webhooks.emit(folder.ownerId, 'files.deleted', { file_ids: fileIds, folder_id: folder.id, reason: 'retention' });
    },
  };
  const sweepOnce = async (now: number) => {
    await app.ballast.check().catch((error: unknown) => app.log.warn({ err: error }, 'could not check the ballast file'));
    return sweepUploads(deps, now);
  };
  app.decorate('sweepUploads', (now?: number) =>
    sweepOnce(now ?? app.now()).then(
      (report) => {
        app.metrics.sweepFinished({ report });
        return report;
      },
      (error: unknown) => {
        app.metrics.sweepFinished({ failed: true });
        throw isNoSpaceError(error) && !(error instanceof DiskFullError) ? new DiskFullError(error) : error;
      },
    ),
  );

  const interval = app.config.upload.sweepIntervalMs;
  if (interval === 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    app
      .sweepUploads()
      .catch((error: unknown) => app.log.error({ err: error }, 'upload sweep failed'))
      .finally(() => {
        running = false;
      });
  }, interval);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
