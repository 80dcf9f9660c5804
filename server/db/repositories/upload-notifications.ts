// Upload notifications: each folder's setting, and the upload events waiting to be told. Events are
// written once per upload request that stored files; the notifier reads the pending ones per folder
// and stamps them notified (or schedules a retry) after it tried to send.
import type { Kysely, Selectable } from 'kysely';
import type { NotifyMode } from '../../../contract/notifications.ts';
import type { Database, UploadEventsTable } from '../schema.ts';
import { rowMapper } from '../row-mapping.ts';
import { deleteBefore } from '../expiry.ts';

export interface NotificationSettings {
  mode: NotifyMode;
  /** Whether messages list the uploaded files' names and paths (metadata the admin may not want mailed). */
  includeFileNames: boolean;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { mode: 'each', includeFileNames: false };

export interface UploadEvent {
  id: number;
  folderId: number;
  createdAt: number;
  fileIds: number[];
  fileCount: number;
  totalBytes: number;
  uploaderEmail: string | null;
  attempts: number;
}

export interface PendingFolder {
  folderId: number;
  firstEventAt: number;
  lastEventAt: number;
}

export interface NotifiedFile {
  id: number;
  fileHash: string;
  originalFilename: string;
  relativePath: string;
  fileSize: number;
}

const toEvent = rowMapper<Omit<Selectable<UploadEventsTable>, 'file_ids_json'>, Omit<UploadEvent, 'fileIds'>>()({
  numbers: ['created_at', 'total_bytes'],
  // Delivery bookkeeping of the notifier, and a column no longer read (schema.ts).
  omit: ['origin', 'notified_at', 'next_attempt_at'],
});

// Ids per IN (...) list: well below SQLite's and PostgreSQL's bound-parameter limits.
const ID_BATCH = 500;

export function createUploadNotificationsRepository(db: Kysely<Database>) {
  return {
    async settingsFor(folderId: number): Promise<NotificationSettings> {
      const row = await db.selectFrom('folder_notification_settings').selectAll().where('folder_id', '=', folderId).executeTakeFirst();
      return row ? { mode: row.mode, includeFileNames: row.include_file_names === 1 } : DEFAULT_NOTIFICATION_SETTINGS;
    },

    async saveSettings(folderId: number, settings: NotificationSettings): Promise<void> {
      const values = { mode: settings.mode, include_file_names: settings.includeFileNames ? 1 : 0 };
      await db
        .insertInto('folder_notification_settings')
        .values({ folder_id: folderId, ...values })
        .onConflict((conflict) => conflict.column('folder_id').doUpdateSet(values))
        .execute();
    },

    /** Records the files of one upload request (their sizes read from the stored records). */
    async recordUpload(input: { folderId: number; fileIds: readonly number[]; uploaderEmail: string | null; now: number }): Promise<void> {
      if (input.fileIds.length === 0) return;
      let totalBytes = 0;
      let fileCount = 0;
      for (let i = 0; i < input.fileIds.length; i += ID_BATCH) {
        const sizes = await db
          .selectFrom('files')
          .select('file_size')
          .where('folder_id', '=', input.folderId)
          .where('id', 'in', input.fileIds.slice(i, i + ID_BATCH))
          .execute();
        fileCount += sizes.length;
        for (const row of sizes) totalBytes += Number(row.file_size);
      }
      if (fileCount === 0) return;
      await db
        .insertInto('upload_events')
        .values({
          folder_id: input.folderId,
          created_at: input.now,
          file_ids_json: JSON.stringify(input.fileIds),
          file_count: fileCount,
          total_bytes: totalBytes,
          uploader_email: input.uploaderEmail,
          // The column is kept for older rows; a request's origin is no longer stored for a message.
          origin: '',
          notified_at: null,
        })
        .execute();
    },

    /** Folders with events not yet told and due for an attempt, with their first and last event time. */
    async pendingFolders(now: number, limit: number): Promise<PendingFolder[]> {
      const rows = await db
        .selectFrom('upload_events')
        .select((eb) => ['folder_id', eb.fn.min('created_at').as('first_at'), eb.fn.max('created_at').as('last_at')])
        .where('notified_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .groupBy('folder_id')
        .orderBy('folder_id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ folderId: row.folder_id, firstEventAt: Number(row.first_at), lastEventAt: Number(row.last_at) }));
    },

    async pendingEvents(folderId: number): Promise<UploadEvent[]> {
      const rows = await db
        .selectFrom('upload_events')
        .selectAll()
        .where('folder_id', '=', folderId)
        .where('notified_at', 'is', null)
        .orderBy('id')
        .execute();
      return rows.map(({ file_ids_json: fileIdsJson, ...row }) => ({ ...toEvent(row), fileIds: JSON.parse(fileIdsJson) as number[] }));
    },

    /** Names, paths and sizes of the files still stored, in id order. */
    async filesOf(folderId: number, fileIds: readonly number[]): Promise<NotifiedFile[]> {
      const files: NotifiedFile[] = [];
      for (let i = 0; i < fileIds.length; i += ID_BATCH) {
        const rows = await db
          .selectFrom('files')
          .select(['id', 'file_hash', 'original_filename', 'relative_path', 'file_size'])
          .where('folder_id', '=', folderId)
          .where('id', 'in', fileIds.slice(i, i + ID_BATCH))
          .orderBy('id')
          .execute();
        for (const row of rows) {
          files.push({ id: row.id, fileHash: row.file_hash, originalFilename: row.original_filename, relativePath: row.relative_path, fileSize: Number(row.file_size) });
        }
      }
      return files;
    },

    async markNotified(eventIds: readonly number[], now: number): Promise<void> {
      for (let i = 0; i < eventIds.length; i += ID_BATCH) {
        await db.updateTable('upload_events').set({ notified_at: now }).where('id', 'in', eventIds.slice(i, i + ID_BATCH)).execute();
      }
    },

    async markFailed(eventIds: readonly number[], nextAttemptAt: number): Promise<void> {
      for (let i = 0; i < eventIds.length; i += ID_BATCH) {
        await db
          .updateTable('upload_events')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: nextAttemptAt }))
          .where('id', 'in', eventIds.slice(i, i + ID_BATCH))
          .execute();
      }
    },

    /** Forgets events told before `before` (the table stays small). */
    async deleteNotifiedBefore(before: number): Promise<number> {
      return deleteBefore(db, 'upload_events', 'notified_at', before);
    },
  };
}

export type UploadNotificationsRepository = ReturnType<typeof createUploadNotificationsRepository>;
