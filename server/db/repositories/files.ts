// Records of uploaded files. The ciphertext itself lives in the blob store under `blobKey`; a
// record is written only after its blob is durable. Deleting a folder removes its records by
// cascade (see the folders repository). Every insert and delete changes the folder's usage ledger
// (folder-usage.ts) in the same transaction.
import type { Kysely, Transaction } from 'kysely';
import type { Database, FileRow } from '../schema.ts';
import { adjustUsage, countRows, releaseDeleted, settleClaim } from './folder-usage.ts';
import { rowMapper, rowValues } from '../row-mapping.ts';
import { codedError } from '../../../contract/coded-error.ts';

/** createMany's records name another key epoch than their folder's current one (the folder was shared or a member removed meanwhile). */
export class KeyEpochChangedError extends codedError('KEY_EPOCH_CHANGED') {}

export interface FileRecord {
  id: number;
  folderId: number;
  originalFilename: string;
  storedFilename: string;
  relativePath: string;
  /** Plaintext size in bytes. */
  fileSize: number;
  fileHash: string;
  encryptedKey: string;
  encryptionIv: string;
  blobKey: string;
  uploadTime: number;
  /** null: the admin never downloaded it. */
  lastDownloadedAdmin: number | null;
  /** The team folder's key epoch encryptedKey is sealed to; null (or absent in a record made by hand): the owner's account key. */
  keyEpoch?: number | null;
}

export type NewFileRecord = Omit<FileRecord, 'id' | 'lastDownloadedAdmin'>;

const toFileRecord = rowMapper<FileRow, FileRecord>()({ numbers: ['file_size', 'upload_time', 'last_downloaded_admin', 'key_epoch'] });

/**
 * A multipart request's idempotency key, recorded with its files: `result` is what the request
 * answered, stored so that a repeat of the key is answered the same (upload-batches.ts).
 */
export interface BatchKeyRecord {
  folderId: number;
  key: string;
  createdAt: number;
  result: (records: readonly FileRecord[]) => unknown;
}

/** Inserts one file record with `db` or inside a caller's transaction (upload completion). */
export async function insertFileRecord(
  db: Kysely<Database> | Transaction<Database>,
  input: NewFileRecord,
): Promise<FileRecord> {
  const row = await db.insertInto('files').values(toInsertable(input)).returningAll().executeTakeFirstOrThrow();
  return toFileRecord(row);
}

function toInsertable(input: NewFileRecord) {
  const values = rowValues(input, [
    'folderId',
    'originalFilename',
    'storedFilename',
    'relativePath',
    'fileSize',
    'fileHash',
    'encryptedKey',
    'encryptionIv',
    'blobKey',
    'uploadTime',
  ]);
  return { ...values, key_epoch: input.keyEpoch ?? null };
}

// Rows per multi-row INSERT: 11 values each, well below SQLite's and PostgreSQL's bound-parameter limits.
const INSERT_BATCH = 200;

// Ids per IN list: well below SQLite's and PostgreSQL's bound-parameter limits.
const ID_BATCH = 500;

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ID_BATCH) out.push(items.slice(i, i + ID_BATCH));
  return out;
}

/** A multipart request's claim on its folder's usage, settled by the transaction that records its files. */
export interface ClaimToSettle {
  id: string;
  folderId: number;
}

/** A file the retention sweep deleted. */
export interface ExpiredFile {
  id: number;
  folderId: number;
  blobKey: string;
  originalFilename: string;
  fileSize: number;
  uploadTime: number;
}

export function createFilesRepository(db: Kysely<Database>) {
  // The ids of the owner's folders, as a subquery: ownership is checked in the same statement.
  const ownedFolderIds = (ownerId: number) =>
    db.selectFrom('folders').select('folders.id').where('folders.owner_id', '=', ownerId);

  return {
    /** One record, counted in its folder's usage whatever its limits (fixtures, the operator's tools). */
    async create(input: NewFileRecord): Promise<FileRecord> {
      return db.transaction().execute(async (trx) => {
        const record = await insertFileRecord(trx, input);
        await adjustUsage(trx, input.folderId, input.fileSize, 1);
        return record;
      });
    },

    /**
     * Inserts several records in one transaction (all or none), in the order given, with one
     * multi-row INSERT per INSERT_BATCH records (a statement per record was most of the database
     * time of a batch of small files). RETURNING promises no row order, so the records are matched
     * to the inputs by their unique blob key. `claim`, the request's claim on the folder's usage,
     * is settled in the same transaction (the ledger then holds exactly these records); without
     * one the records are counted whatever the folder's limits (the operator's tools, fixtures).
     */
    async createMany(
      inputs: readonly NewFileRecord[],
      batch?: BatchKeyRecord,
      claim?: ClaimToSettle,
      keyEpoch?: { folderId: number; epoch: number | null },
    ): Promise<FileRecord[]> {
      if (inputs.length === 0 && !batch && !claim) return [];
      return db.transaction().execute(async (trx) => {
        const byBlobKey = new Map<string, FileRecord>();
        for (let start = 0; start < inputs.length; start += INSERT_BATCH) {
          const rows = await trx
            .insertInto('files')
            .values(inputs.slice(start, start + INSERT_BATCH).map(toInsertable))
            .returningAll()
            .execute();
          for (const row of rows) byBlobKey.set(row.blob_key, toFileRecord(row));
        }
        const records = inputs.map((input) => {
          const record = byBlobKey.get(input.blobKey);
          if (!record) throw new Error(`no record came back for blob ${input.blobKey}`);
          return record;
        });
        // In the same transaction: a request repeating this key that commits first makes this
        // insert fail (unique key), and then none of these records exist.
        if (batch) {
          await trx
            .insertInto('upload_batches')
            .values({
              folder_id: batch.folderId,
              idempotency_key: batch.key,
              result: JSON.stringify(batch.result(records)),
              created_at: batch.createdAt,
            })
            .execute();
        }
        // The records' folders hold them from now on: through the request's claim, or counted anew.
        if (claim) {
          const bytes = inputs.reduce((sum, input) => sum + input.fileSize, 0);
          await settleClaim(trx, claim.id, claim.folderId, { bytes, files: inputs.length });
        } else {
          await countRows(trx, inputs.map((input) => ({ folderId: input.folderId, bytes: input.fileSize })), 1);
        }
        // After the usage row is written: a share (which writes it first) has then either committed
        // and is seen here, or waits for this transaction. Records sealed to an epoch that is no
        // longer the folder's current one are not stored.
        if (keyEpoch) {
          const current = await trx
            .selectFrom('folder_key_epochs')
            .select((eb) => eb.fn.max('epoch').as('epoch'))
            .where('folder_id', '=', keyEpoch.folderId)
            .executeTakeFirst();
          const epoch = current?.epoch === null || current?.epoch === undefined ? null : Number(current.epoch);
          if (epoch !== keyEpoch.epoch) throw new KeyEpochChangedError('the folder key changed while the files were stored');
        }
        return records;
      });
    },

    /** The record whose ciphertext is the blob `blobKey` (an upload completed twice finds its record). */
    async findByBlobKey(blobKey: string): Promise<FileRecord | undefined> {
      const row = await db.selectFrom('files').selectAll().where('blob_key', '=', blobKey).executeTakeFirst();
      return row && toFileRecord(row);
    },

    /** Which of `blobKeys` a file record points at (for the orphan sweep). */
    async existingBlobKeys(blobKeys: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const batch of batches(blobKeys)) {
        const rows = await db.selectFrom('files').select('blob_key').where('blob_key', 'in', batch).execute();
        for (const row of rows) found.add(row.blob_key);
      }
      return found;
    },

    /** Every record's blob key, in pages ordered by id (for migrate-blobs). */
    async blobKeysAfter(afterId: number, limit: number): Promise<Array<{ id: number; blobKey: string }>> {
      const rows = await db.selectFrom('files').select(['id', 'blob_key']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
      return rows.map((row) => ({ id: row.id, blobKey: row.blob_key }));
    },

    async listForFolder(folderId: number): Promise<FileRecord[]> {
      const rows = await db
        .selectFrom('files')
        .selectAll()
        .where('folder_id', '=', folderId)
        .orderBy('upload_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
      return rows.map(toFileRecord);
    },

    async markDownloaded(id: number, now: number): Promise<void> {
      await db.updateTable('files').set({ last_downloaded_admin: now }).where('id', '=', id).execute();
    },

    /** The file, whichever folder it lies in: the caller checks the account's role in `folderId` (folder-access.ts). */
    async findById(id: number): Promise<FileRecord | undefined> {
      const row = await db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toFileRecord(row);
    },

    /** Those of `ids` that exist (any order), whichever folders they lie in: the caller checks the roles. */
    async listByIds(ids: readonly number[]): Promise<FileRecord[]> {
      const records: FileRecord[] = [];
      for (const batch of batches(ids)) {
        const rows = await db.selectFrom('files').selectAll().where('id', 'in', batch).execute();
        records.push(...rows.map(toFileRecord));
      }
      return records;
    },

    /**
     * Deletes those of `ids` that lie in `folderIds` (folders the caller may delete files of) and
     * returns what was deleted. One transaction: all of them or none.
     */
    async deleteInFolders(ids: readonly number[], folderIds: readonly number[]): Promise<Array<{ id: number; blobKey: string }>> {
      if (ids.length === 0 || folderIds.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const deleted: Array<{ id: number; blobKey: string }> = [];
        for (const batch of batches(ids)) {
          const rows = await trx
            .deleteFrom('files')
            .where('files.id', 'in', batch)
            .where('files.folder_id', 'in', [...folderIds])
            .returning(['files.id', 'files.blob_key', 'files.folder_id', 'files.file_size'])
            .execute();
          deleted.push(...rows.map((row) => ({ id: row.id, blobKey: row.blob_key })));
          await releaseDeleted(trx, rows.map((row) => ({ folderId: row.folder_id, bytes: Number(row.file_size) })));
        }
        return deleted;
      });
    },

    /** The file, if it exists and lies in a folder of `ownerId`. */
    async findOwned(ownerId: number, id: number): Promise<FileRecord | undefined> {
      const row = await db
        .selectFrom('files')
        .selectAll('files')
        .where('files.id', '=', id)
        .where('files.folder_id', 'in', ownedFolderIds(ownerId))
        .executeTakeFirst();
      return row && toFileRecord(row);
    },

    /** Those of `ids` that lie in folders of `ownerId` (any order; missing ones are left out). */
    async listOwnedByIds(ownerId: number, ids: readonly number[]): Promise<FileRecord[]> {
      const records: FileRecord[] = [];
      for (const batch of batches(ids)) {
        const rows = await db
          .selectFrom('files')
          .selectAll('files')
          .where('files.id', 'in', batch)
          .where('files.folder_id', 'in', ownedFolderIds(ownerId))
          .execute();
        records.push(...rows.map(toFileRecord));
      }
      return records;
    },

    /**
     * Retention: deletes up to `limit` files of the folder uploaded before `uploadedBefore` and
     * returns them. The delete is the claim: a row comes back to exactly one caller, whatever
     * process runs the same sweep at once, so each file is logged and its blob removed once.
     */
    async deleteUploadedBefore(folderId: number, uploadedBefore: number, limit: number): Promise<ExpiredFile[]> {
      return db.transaction().execute(async (trx) => {
        const oldest = trx
          .selectFrom('files')
          .select('id')
          .where('folder_id', '=', folderId)
          .where('upload_time', '<', uploadedBefore)
          .orderBy('upload_time')
          .orderBy('id')
          .limit(limit);
        const rows = await trx
          .deleteFrom('files')
          .where('id', 'in', oldest)
          .where('upload_time', '<', uploadedBefore)
          .returning(['id', 'folder_id', 'blob_key', 'original_filename', 'file_size', 'upload_time'])
          .execute();
        await releaseDeleted(trx, rows.map((row) => ({ folderId: row.folder_id, bytes: Number(row.file_size) })));
        return rows
          .map((row) => ({
            id: row.id,
            folderId: row.folder_id,
            blobKey: row.blob_key,
            originalFilename: row.original_filename,
            fileSize: Number(row.file_size),
            uploadTime: Number(row.upload_time),
          }))
          .sort((a, b) => a.id - b.id);
      });
    },

    /** The file, if the download link `linkId` shares it. */
    async findInLink(linkId: number, fileId: number): Promise<FileRecord | undefined> {
      const row = await db
        .selectFrom('files')
        .innerJoin('download_link_files', 'download_link_files.file_id', 'files.id')
        .selectAll('files')
        .where((eb) => eb.and({ 'download_link_files.link_id': linkId, 'files.id': fileId }))
        .executeTakeFirst();
      return row && toFileRecord(row);
    },
  };
}

export type FilesRepository = ReturnType<typeof createFilesRepository>;
