// Resumable (tus) upload sessions. The bytes live in the tus store under the blob root
// ("uploads/<id>"); this row holds everything else: which folder, the file's name, path, wrapped
// key and IV, the declared sizes, and activity times for the sweep. Completing a session turns it
// into a file record in one transaction, so a file appears whole or not at all.
import type { Kysely } from 'kysely';
import type { Database, UploadSessionRow } from '../schema.ts';
import { insertFileRecord, type FileRecord, type NewFileRecord } from './files.ts';

export interface UploadSession {
  id: string;
  folderId: number;
  uploaderEmail: string | null;
  /** The file name as the client sent it (tus metadata), before sanitising. */
  filename: string;
  /** The relative directory as the client sent it. */
  relativePath: string;
  encryptedKey: string;
  encryptionIv: string;
  plainSize: number;
  /** Ciphertext length declared at creation (tus Upload-Length). */
  uploadLength: number;
  /** The tus Upload-Metadata pairs as sent (echoed on HEAD). */
  metadata: Record<string, string | null>;
  createdAt: number;
  lastActivityAt: number;
  /** When the last byte arrived; null while bytes are missing. */
  finishedAt: number | null;
}

export type NewUploadSession = Omit<UploadSession, 'lastActivityAt' | 'finishedAt'>;

function toSession(row: UploadSessionRow): UploadSession {
  return {
    id: row.id,
    folderId: row.folder_id,
    uploaderEmail: row.uploader_email,
    filename: row.filename,
    relativePath: row.relative_path,
    encryptedKey: row.encrypted_key,
    encryptionIv: row.encryption_iv,
    plainSize: Number(row.plain_size),
    uploadLength: Number(row.upload_length),
    metadata: JSON.parse(row.metadata) as Record<string, string | null>,
    createdAt: Number(row.created_at),
    lastActivityAt: Number(row.last_activity_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

export function createUploadSessionsRepository(db: Kysely<Database>) {
  return {
    async create(input: NewUploadSession): Promise<void> {
      await db
        .insertInto('upload_sessions')
        .values({
          id: input.id,
          folder_id: input.folderId,
          uploader_email: input.uploaderEmail,
          filename: input.filename,
          relative_path: input.relativePath,
          encrypted_key: input.encryptedKey,
          encryption_iv: input.encryptionIv,
          plain_size: input.plainSize,
          upload_length: input.uploadLength,
          metadata: JSON.stringify(input.metadata),
          created_at: input.createdAt,
          last_activity_at: input.createdAt,
          finished_at: null,
        })
        .execute();
    },

    async find(id: string): Promise<UploadSession | undefined> {
      const row = await db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },

    async touch(id: string, now: number): Promise<void> {
      await db.updateTable('upload_sessions').set({ last_activity_at: now }).where('id', '=', id).execute();
    },

    async markFinished(id: string, now: number): Promise<void> {
      await db
        .updateTable('upload_sessions')
        .set({ finished_at: now, last_activity_at: now })
        .where('id', '=', id)
        .execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('upload_sessions').where('id', '=', id).execute();
    },

    /** Sessions with no activity since `before` (finished or not), oldest first. */
    async listInactiveSince(before: number, limit: number): Promise<UploadSession[]> {
      const rows = await db
        .selectFrom('upload_sessions')
        .selectAll()
        .where('last_activity_at', '<', before)
        .orderBy('last_activity_at', 'asc')
        .limit(limit)
        .execute();
      return rows.map(toSession);
    },

    /** Which of `ids` name a session (for the orphan sweep). */
    async existingIds(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('upload_sessions').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((row) => row.id));
    },

    async findMany(ids: readonly string[]): Promise<UploadSession[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('upload_sessions').selectAll().where('id', 'in', ids).execute();
      return rows.map(toSession);
    },

    /**
     * Ends each session and inserts its file record, all in one transaction. An entry is undefined
     * when its session was already gone (another request completed or swept it first).
     */
    async completeMany(
      items: ReadonlyArray<{ id: string; record: NewFileRecord }>,
    ): Promise<Array<FileRecord | undefined>> {
      if (items.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const records: Array<FileRecord | undefined> = [];
        for (const { id, record } of items) {
          const deleted = await trx.deleteFrom('upload_sessions').where('id', '=', id).executeTakeFirst();
          records.push(Number(deleted.numDeletedRows) === 1 ? await insertFileRecord(trx, record) : undefined);
        }
        return records;
      });
    },
  };
}

export type UploadSessionsRepository = ReturnType<typeof createUploadSessionsRepository>;
