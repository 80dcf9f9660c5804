// The ledger of what each folder holds against its limits (table folder_quotas, migration 0016):
// plaintext bytes and a count, of its files, its unfinished uploads and the claims of multipart
// requests still streaming, on the same row as the limits.
//
// Taking from the ledger is one conditional UPDATE: it adds only if the result stays within the
// limits, and its condition reads nothing but that row. Both databases make that atomic across
// processes (SQLite runs one writer at a time; PostgreSQL re-checks the condition against the
// row's newest version when a concurrent update got there first), so parallel uploaders together
// never pass a limit. Every other change (a file deleted, an upload cancelled or completed, a
// claim settled) happens in the transaction that changes the facts, so the ledger and the facts
// never disagree; `recount` computes the facts for tests and diagnostics.
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import { claimEach, claimedOne, refusableTransaction } from '../claims.ts';

export type Queryable = Kysely<Database> | Transaction<Database>;

export interface Usage {
  bytes: number;
  files: number;
}

/**
 * Adds `bytes` and `files` to the folder's usage if both stay within its limits; false, changing
 * nothing, when either would pass (also when the folder is already over a lowered limit).
 */
export async function claimUsage(db: Queryable, folderId: number, bytes: number, files: number): Promise<boolean> {
  const withinLimits = sql<SqlBool>`(max_bytes is null or used_bytes + ${bytes} <= max_bytes)
    and (max_files is null or used_files + ${files} <= max_files)`;
  const result = await db
    .updateTable('folder_quotas')
    .set({ used_bytes: sql`used_bytes + ${bytes}`, used_files: sql`used_files + ${files}` })
    .where('folder_id', '=', folderId)
    .where(withinLimits)
    .executeTakeFirst();
  return claimedOne(result);
}

/** Changes the folder's usage by `bytes` and `files` (either sign) whatever its limits, never below zero. */
export async function adjustUsage(db: Queryable, folderId: number, bytes: number, files: number): Promise<void> {
  if (bytes === 0 && files === 0) return;
  await db
    .updateTable('folder_quotas')
    .set({
      used_bytes: sql`case when used_bytes + ${bytes} < 0 then 0 else used_bytes + ${bytes} end`,
      used_files: sql`case when used_files + ${files} < 0 then 0 else used_files + ${files} end`,
    })
    .where('folder_id', '=', folderId)
    .execute();
}

/**
 * Counts rows (files or uploads, `bytes` each) in their folders' usage, `direction` 1 for added
 * rows and -1 for deleted ones, one update per folder.
 */
export async function countRows(db: Queryable, rows: ReadonlyArray<{ folderId: number; bytes: number }>, direction: 1 | -1): Promise<void> {
  const byFolder = new Map<number, Usage>();
  for (const { folderId, bytes } of rows) {
    const usage = byFolder.get(folderId) ?? { bytes: 0, files: 0 };
    usage.bytes += bytes;
    usage.files += 1;
    byFolder.set(folderId, usage);
  }
  for (const [folderId, usage] of byFolder) await adjustUsage(db, folderId, direction * usage.bytes, direction * usage.files);
}

/** Gives back what deleted rows held. */
export function releaseDeleted(db: Queryable, rows: ReadonlyArray<{ folderId: number; bytes: number }>): Promise<void> {
  return countRows(db, rows, -1);
}

/**
 * Ends a multipart request's claim inside the transaction that records its files: the claim's
 * row goes, and the ledger keeps exactly what the records hold (`final`), giving back the rest.
 * A claim the sweep already gave back (its row gone) adds `final` anew.
 */
export async function settleClaim(db: Queryable, claimId: string, folderId: number, final: Usage): Promise<void> {
  const claimed = await db.deleteFrom('storage_claims').where('id', '=', claimId).returning(['bytes', 'files']).executeTakeFirst();
  const bytes = claimed === undefined ? 0 : Number(claimed.bytes);
  const files = claimed === undefined ? 0 : Number(claimed.files);
  await adjustUsage(db, folderId, final.bytes - bytes, final.files - files);
}

/** A new folder's row: its limits, holding nothing yet. */
export async function insertQuota(db: Queryable, folderId: number, limits: { maxBytes: number | null; maxFiles: number | null }): Promise<void> {
  await db.insertInto('folder_quotas').values({ folder_id: folderId, max_bytes: limits.maxBytes, max_files: limits.maxFiles, used_bytes: 0, used_files: 0 }).execute();
}

/** Changes a folder's limits (only those given); usage stays. A lowered limit refuses new uploads, keeps what is stored. */
export async function setLimits(db: Queryable, folderId: number, limits: { maxBytes?: number | null; maxFiles?: number | null }): Promise<void> {
  const values = {
    ...(limits.maxBytes !== undefined ? { max_bytes: limits.maxBytes } : {}),
    ...(limits.maxFiles !== undefined ? { max_files: limits.maxFiles } : {}),
  };
  if (Object.keys(values).length === 0) return;
  await db.updateTable('folder_quotas').set(values).where('folder_id', '=', folderId).execute();
}

export function createFolderUsageRepository(db: Kysely<Database>) {
  async function releaseClaim(id: string): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('storage_claims').where('id', '=', id).returning(['folder_id', 'bytes', 'files']).executeTakeFirst();
      if (row === undefined) return false;
      await adjustUsage(trx, row.folder_id, -Number(row.bytes), -Number(row.files));
      return true;
    });
  }

  return {
    async usageOf(folderId: number): Promise<Usage | undefined> {
      const row = await db.selectFrom('folder_quotas').select(['used_bytes', 'used_files']).where('folder_id', '=', folderId).executeTakeFirst();
      return row && { bytes: Number(row.used_bytes), files: Number(row.used_files) };
    },

    /** What the admin's folders hold together, and how many folders there are. */
    async totalsForOwner(ownerId: number): Promise<Usage & { folders: number }> {
      const row = await db
        .selectFrom('folders')
        .leftJoin('folder_quotas', 'folder_quotas.folder_id', 'folders.id')
        .select([
          sql<number | string | null>`sum(folder_quotas.used_bytes)`.as('bytes'),
          sql<number | string | null>`sum(folder_quotas.used_files)`.as('files'),
          sql<number | string>`count(folders.id)`.as('folders'),
        ])
        .where('folders.owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      return { bytes: Number(row.bytes ?? 0), files: Number(row.files ?? 0), folders: Number(row.folders) };
    },

    /** The facts the ledger should equal: files, unfinished uploads and open claims of the folder. */
    async recount(folderId: number): Promise<Usage> {
      const files = await db
        .selectFrom('files')
        .select([sql<number | string | null>`sum(file_size)`.as('bytes'), sql<number | string>`count(*)`.as('count')])
        .where('folder_id', '=', folderId)
        .executeTakeFirstOrThrow();
      const uploads = await db
        .selectFrom('upload_sessions')
        .select([sql<number | string | null>`sum(plain_size)`.as('bytes'), sql<number | string>`count(*)`.as('count')])
        .where('folder_id', '=', folderId)
        .executeTakeFirstOrThrow();
      const claims = await db
        .selectFrom('storage_claims')
        .select([sql<number | string | null>`sum(bytes)`.as('bytes'), sql<number | string | null>`sum(files)`.as('count')])
        .where('folder_id', '=', folderId)
        .executeTakeFirstOrThrow();
      return {
        bytes: Number(files.bytes ?? 0) + Number(uploads.bytes ?? 0) + Number(claims.bytes ?? 0),
        files: Number(files.count) + Number(uploads.count) + Number(claims.count ?? 0),
      };
    },

    /** A multipart request's claim on its folder, holding nothing yet. */
    async openClaim(id: string, folderId: number, expiresAt: number): Promise<void> {
      await db.insertInto('storage_claims').values({ id, folder_id: folderId, bytes: 0, files: 0, expires_at: expiresAt }).execute();
    },

    /**
     * Takes `bytes` and `files` more for the claim, within the folder's limits; false, changing
     * nothing, when that would pass a limit or the claim was given back already (expired).
     */
    async growClaim(id: string, folderId: number, more: Usage, expiresAt: number): Promise<boolean> {
      // The claim's row first, then the folder's, in the order releaseClaim and settleClaim lock
      // them: the other order let a grow and a give-back of one claim deadlock on PostgreSQL.
      return refusableTransaction(db, async (trx, refuse: (answer: false) => never) => {
        const grown = await trx
          .updateTable('storage_claims')
          .set({ bytes: sql`bytes + ${more.bytes}`, files: sql`files + ${more.files}`, expires_at: expiresAt })
          .where('id', '=', id)
          .executeTakeFirst();
        // The claim's row is gone (given back by the sweep): nothing taken.
        if (!claimedOne(grown)) return false;
        // Over a limit: the claim's growth goes back too.
        if (!(await claimUsage(trx, folderId, more.bytes, more.files))) refuse(false);
        return true;
      });
    },

    /** Gives the claim back (the request failed); true when this call did (claimed first, so once). */
    releaseClaim,

    /** Gives back the claims of requests that died (expired before `now`); returns how many. */
    async releaseExpiredClaims(now: number, limit: number): Promise<number> {
      const rows = await db.selectFrom('storage_claims').select('id').where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();
      const released = await claimEach(rows, async (row) => ((await releaseClaim(row.id)) ? row.id : undefined));
      return released.length;
    },
  };
}

export type FolderUsageRepository = ReturnType<typeof createFolderUsageRepository>;
