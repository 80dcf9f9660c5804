// Resumable (tus) upload sessions. The bytes live in the tus store under the blob root
// ("uploads/<id>"); this row holds everything else: which folder, the file's name, path, wrapped
// key and IV, the declared sizes, and activity times for the sweep. Completing a session turns it
// into a file record in one transaction, so a file appears whole or not at all.
// A session holds its declared plaintext size and one file of its folder's usage (folder-usage.ts)
// from its creation, which is refused when that would pass a limit, until it is removed (given
// back) or completed (the file record holds it from then on).
import type { Kysely, Transaction } from 'kysely';
import type { Database, UploadSessionRow } from '../schema.ts';
import { insertFileRecord, type FileRecord, type NewFileRecord } from './files.ts';
import { adjustUsage, claimUsage, releaseDeleted } from './folder-usage.ts';
import { claimedOne } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

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
  /** The team folder's key epoch encryptedKey is sealed to; null (or absent): the owner's account key. */
  keyEpoch?: number | null;
}

export type NewUploadSession = Omit<UploadSession, 'lastActivityAt' | 'finishedAt'>;

const toSession = rowMapper<UploadSessionRow, UploadSession>()({
  numbers: ['plain_size', 'upload_length', 'created_at', 'last_activity_at', 'finished_at', 'key_epoch'],
  decode: { metadata: (json: string) => JSON.parse(json) as Record<string, string | null> },
});

async function insertSession(trx: Transaction<Database>, input: NewUploadSession): Promise<void> {
  await trx
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
      key_epoch: input.keyEpoch ?? null,
    })
    .execute();
}

/** Gives back what deleted sessions held; returns whether any row was deleted. */
async function released(trx: Transaction<Database>, rows: ReadonlyArray<{ folder_id: number; plain_size: number }>): Promise<boolean> {
  await releaseDeleted(trx, rows.map((row) => ({ folderId: row.folder_id, bytes: Number(row.plain_size) })));
  return rows.length > 0;
}

export function createUploadSessionsRepository(db: Kysely<Database>) {
  return {
    /**
     * Records the session if its folder's limits leave room for its plaintext size and one more
     * file (taken from the folder's usage in the same transaction); false, storing nothing, when not.
     */
    async createWithinLimits(input: NewUploadSession): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await claimUsage(trx, input.folderId, input.plainSize, 1))) return false;
        await insertSession(trx, input);
        return true;
      });
    },

    /** Records the session whatever its folder's limits (tests and tools), counted in its usage. */
    async create(input: NewUploadSession): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await adjustUsage(trx, input.folderId, input.plainSize, 1);
        await insertSession(trx, input);
      });
    },

    async find(id: string): Promise<UploadSession | undefined> {
      const row = await db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },

    /**
     * Records activity at `now`, never moving it back: the touches of one upload's PATCH and of its
     * stream (POST_RECEIVE, not awaited) can commit out of order, and an older time landing last
     * would make a live upload look abandoned to the sweep.
     */
    async touch(id: string, now: number): Promise<void> {
      await db
        .updateTable('upload_sessions')
        .set({ last_activity_at: now })
        .where('id', '=', id)
        .where('last_activity_at', '<', now)
        .execute();
    },

    async markFinished(id: string, now: number): Promise<void> {
      await db
        .updateTable('upload_sessions')
        .set({ finished_at: now, last_activity_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** A folder's unfinished uploads, most recently active first (at most `limit`). */
    async listForFolder(folderId: number, limit: number): Promise<UploadSession[]> {
      const rows = await db
        .selectFrom('upload_sessions')
        .selectAll()
        .where('folder_id', '=', folderId)
        .orderBy('last_activity_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toSession);
    },

    /**
     * Removes the session if it belongs to the folder. True when this call removed it: only then may
     * the caller discard its bytes (a completion or the sweep that got there first owns them).
     */
    async deleteInFolder(folderId: number, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .deleteFrom('upload_sessions')
          .where('id', '=', id)
          .where('folder_id', '=', folderId)
          .returning(['folder_id', 'plain_size'])
          .execute();
        return released(trx, rows);
      });
    },

    async delete(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const rows = await trx.deleteFrom('upload_sessions').where('id', '=', id).returning(['folder_id', 'plain_size']).execute();
        await released(trx, rows);
      });
    },

    /**
     * Deletes the session only if it is still inactive since `before`; true when this call deleted
     * it. The sweep discards an upload's bytes only after winning this claim: a completion that
     * committed first has already deleted the row (its bytes now belong to a file record), and
     * activity since the listing keeps it.
     */
    async claimInactive(id: string, before: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .deleteFrom('upload_sessions')
          .where('id', '=', id)
          .where('last_activity_at', '<', before)
          .returning(['folder_id', 'plain_size'])
          .execute();
        return released(trx, rows);
      });
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
     * when its session was already gone (another request completed or swept it first). The usage
     * the session held passes to its record (the same plaintext size, the same one file).
     */
    async completeMany(
      items: ReadonlyArray<{ id: string; record: NewFileRecord }>,
    ): Promise<Array<FileRecord | undefined>> {
      if (items.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const records: Array<FileRecord | undefined> = [];
        for (const { id, record } of items) {
          const deleted = await trx.deleteFrom('upload_sessions').where('id', '=', id).executeTakeFirst();
          records.push(claimedOne(deleted) ? await insertFileRecord(trx, record) : undefined);
        }
        return records;
      });
    },
  };
}

export type UploadSessionsRepository = ReturnType<typeof createUploadSessionsRepository>;
