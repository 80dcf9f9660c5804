// Upload notifications as `app.notifications`: `recordUpload` (called by the upload routes once
// files are stored; never fails the upload; also queues the upload.completed webhook) and `notifyUploads(now?)`, one notifier pass (server/
// notifications/upload-notifier.ts), which also runs every NOTIFY_CHECK_SECONDS on a timer that
// never keeps the process alive; each pass also announces folders that expired (folder.expired).
import type { FastifyRequest } from 'fastify';
import { notifierHolderName, notifyUploads, type NotifyReport } from '../notifications/upload-notifier.ts';
import { globalPlugin } from './global-plugin.ts';

export interface UploadNotifications {
  recordUpload(request: FastifyRequest, stored: { folderId: number; fileIds: number[]; uploaderEmail: string | null }): Promise<void>;
  /** One notifier pass as of `now` (default: the app clock). */
  notifyUploads(now?: number): Promise<NotifyReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: UploadNotifications;
  }
}

export const uploadNotificationsPlugin = globalPlugin('upload-notifications', async (app) => {
  const { quietMs, digestMs, checkIntervalMs } = app.config.notify;
  const deps = {
    repos: app.repos,
    mailer: app.mailer,
    log: app.log,
    quietMs,
    digestMs,
    publicUrl: app.config.publicUrl,
    holder: notifierHolderName(),
    activityCheckpoint: (userId: number) => app.activity.checkpoint(userId),
  };
  /**
   * The upload as the account's owner sees it: the files.uploaded activity entry and the
   * upload.completed webhook (ids, paths, sizes, hashes), from one read of the folder and files.
   */
  async function tellOwner(request: FastifyRequest, stored: { folderId: number; fileIds: number[]; uploaderEmail: string | null }): Promise<void> {
    const folder = await app.repos.folders.findForOperator(stored.folderId);
    if (!folder) return;
    const files = await app.repos.uploadNotifications.filesOf(stored.folderId, stored.fileIds);
    await app.activity.record(folder.ownerId, 'files.uploaded', {
      folderId: stored.folderId,
      ip: request.ip,
      details: { files: files.length, bytes: files.reduce((sum, file) => sum + file.fileSize, 0), uploader_email: stored.uploaderEmail },
    });
    await app.webhooks.emit(folder.ownerId, 'upload.completed', {
      folder_id: stored.folderId,
      uploader_email: stored.uploaderEmail,
      files: files.map((file) => ({
        id: file.id,
        path: file.relativePath === '.' ? file.originalFilename : `${file.relativePath}/${file.originalFilename}`,
        size: file.fileSize,
        sha256: file.fileHash,
      })),
    });
  }

  /** folder.expired: once per folder whose expiry date has passed (claimed, so once across processes). */
  async function announceExpiredFolders(now: number): Promise<void> {
    for (const folder of await app.repos.folders.claimExpired(now, 200)) {
      const expiredAt = new Date(folder.expirationDate ?? now).toISOString();
      await app.activity.record(folder.ownerId, 'folder.expired', { folderId: folder.id, details: { title: folder.title, expired_at: expiredAt } });
      await app.webhooks.emit(folder.ownerId, 'folder.expired', { folder_id: folder.id, expired_at: expiredAt });
    }
  }

  const notifications: UploadNotifications = {
    async recordUpload(request, stored) {
      if (stored.fileIds.length === 0) return;
      try {
        await app.repos.uploadNotifications.recordUpload({ ...stored, now: app.now() });
        await tellOwner(request, stored);
      } catch (error) {
        request.log.warn({ err: error }, 'could not record the upload for notifications');
      }
    },
    notifyUploads: async (now?: number) => {
      const at = now ?? app.now();
      await announceExpiredFolders(at);
      return notifyUploads(deps, at);
    },
  };
  app.decorate('notifications', notifications);

  if (checkIntervalMs === 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    notifications
      .notifyUploads()
      .catch((error: unknown) => app.log.error({ err: error }, 'upload notification pass failed'))
      .finally(() => {
        running = false;
      });
  }, checkIntervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
