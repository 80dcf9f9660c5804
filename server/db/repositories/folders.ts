// Admin folders. Every read and write of an existing folder names its owner, so one admin can never
// see or change another's folder through this repository. The list and detail reads also carry
// two values computed from the folder's files: the latest upload time and whether any file was
// never downloaded by the admin.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, FolderRow } from '../schema.ts';
import { insertQuota, setLimits } from './folder-usage.ts';
import { claimEach, claimedOne } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

import type { FolderSortKey, SortOrder } from '../../../contract/folders.ts';
import { TEAM_ROLES, type TeamRole } from '../../../contract/team-folders.ts';

// The sort keys are the API's (GET /folders/ sort_by).
export { FOLDER_SORT_KEYS } from '../../../contract/folders.ts';
export type { FolderSortKey, SortOrder };

export interface FolderSort {
  by: FolderSortKey;
  order: SortOrder;
}

export interface Folder {
  id: number;
  ownerId: number;
  title: string;
  description: string | null;
  linkToken: string;
  /** argon2id hash of the upload link password; null when there is none. Never leaves the server. */
  linkPasswordHash: string | null;
  requireEmailVerification: boolean;
  /** null: any verified e-mail address may upload. Never an empty list. */
  allowedEmails: string[] | null;
  performMimeCheck: boolean;
  isActive: boolean;
  expirationDate: number | null;
  creationDate: number;
  /** Plaintext bytes its files and unfinished uploads may hold; null: no limit. */
  storageLimitBytes: number | null;
  /** Files and unfinished uploads it may hold; null: no limit. */
  fileLimit: number | null;
  /** Files are deleted this many days after upload; null: kept until deleted. */
  retentionDays: number | null;
  /** What its files and unfinished uploads hold now (the usage ledger, folder-usage.ts). */
  usedBytes: number;
  usedFiles: number;
  /** Upload time of the newest file; null when the folder has none. */
  lastUploadTime: number | null;
  hasUndownloadedFiles: boolean;
  /** The team folder's current key epoch; null: a personal folder (files sealed to the owner's key). */
  currentKeyEpoch: number | null;
}

/** A folder as one account sees it: with that account's role in it. */
export type AccountFolder = Folder & { myRole: TeamRole };

/**
 * The folder row alone, without the two values computed from its files: what the upload routes
 * need on every request (each tus PATCH included), where a pass over the files table would make
 * uploads slower as the number of stored files grows.
 */
export type UploadLinkFolder = Omit<Folder, 'lastUploadTime' | 'hasUndownloadedFiles' | 'storageLimitBytes' | 'fileLimit' | 'usedBytes' | 'usedFiles' | 'currentKeyEpoch'>;

/** A folder to create: its own fields; an absent limit is no limit (routes apply the server's defaults, folder-changes.ts). */
export type NewFolder = Omit<UploadLinkFolder, 'id' | 'retentionDays'> &
  Partial<Pick<Folder, 'storageLimitBytes' | 'fileLimit' | 'retentionDays'>>;

/** Fields to change; an absent field keeps its value. */
export type FolderChanges = Partial<
  Pick<
    NewFolder,
    | 'title'
    | 'description'
    | 'linkPasswordHash'
    | 'requireEmailVerification'
    | 'allowedEmails'
    | 'performMimeCheck'
    | 'isActive'
    | 'expirationDate'
    | 'storageLimitBytes'
    | 'fileLimit'
    | 'retentionDays'
  >
>;

interface FolderWithStatsRow extends FolderRow {
  last_upload_time: number | string | null;
  undownloaded_count: number | string | null;
  max_bytes: number | string | null;
  max_files: number | string | null;
  used_bytes: number | string | null;
  used_files: number | string | null;
  current_key_epoch: number | string | null;
}

interface AccountFolderRow extends FolderWithStatsRow {
  my_role: string | null;
}

function encodeEmails(emails: string[] | null): string | null {
  return emails && emails.length > 0 ? JSON.stringify(emails) : null;
}

function decodeEmails(value: string | null): string[] | null {
  if (value === null) return null;
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed)) return null;
  const emails = parsed.filter((item): item is string => typeof item === 'string');
  return emails.length > 0 ? emails : null;
}

const toFolderRecord = rowMapper<FolderRow, UploadLinkFolder>()({
  numbers: ['expiration_date', 'creation_date', 'retention_days'],
  flags: ['require_email_verification', 'perform_mime_check', 'is_active'],
  decode: { allowed_emails: decodeEmails },
});

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toFolder(row: FolderWithStatsRow): Folder {
  const { last_upload_time, undownloaded_count, max_bytes, max_files, used_bytes, used_files, current_key_epoch, ...folderRow } = row;
  return {
    ...toFolderRecord(folderRow),
    // PostgreSQL's max(bigint) and sum() come back as int8, which the pool parses to numbers;
    // Number() covers drivers that hand them over as strings.
    lastUploadTime: numberOrNull(last_upload_time),
    hasUndownloadedFiles: Number(undownloaded_count ?? 0) > 0,
    storageLimitBytes: numberOrNull(max_bytes),
    fileLimit: numberOrNull(max_files),
    usedBytes: Number(used_bytes ?? 0),
    usedFiles: Number(used_files ?? 0),
    currentKeyEpoch: numberOrNull(current_key_epoch),
  };
}

function isTeamRole(value: string | null): value is TeamRole {
  return (TEAM_ROLES as readonly (string | null)[]).includes(value);
}

/** The folder with the viewer's role, or undefined when the viewer is neither its owner nor a member. */
function toAccountFolder(row: AccountFolderRow): AccountFolder | undefined {
  const { my_role, ...folderRow } = row;
  if (!isTeamRole(my_role)) return undefined;
  return { ...toFolder(folderRow), myRole: my_role };
}

const flag = (value: boolean) => (value ? 1 : 0);

function toColumns(changes: FolderChanges) {
  return {
    ...(changes.title !== undefined ? { title: changes.title } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.linkPasswordHash !== undefined ? { link_password_hash: changes.linkPasswordHash } : {}),
    ...(changes.requireEmailVerification !== undefined
      ? { require_email_verification: flag(changes.requireEmailVerification) }
      : {}),
    ...(changes.allowedEmails !== undefined ? { allowed_emails: encodeEmails(changes.allowedEmails) } : {}),
    ...(changes.performMimeCheck !== undefined ? { perform_mime_check: flag(changes.performMimeCheck) } : {}),
    ...(changes.isActive !== undefined ? { is_active: flag(changes.isActive) } : {}),
    ...(changes.expirationDate !== undefined ? { expiration_date: changes.expirationDate } : {}),
    ...(changes.retentionDays !== undefined ? { retention_days: changes.retentionDays } : {}),
  };
}

export function createFoldersRepository(db: Kysely<Database>) {
  // Folders joined with per-folder file statistics (one grouped pass over files).
  function selectWithStats() {
    return db
      .selectFrom('folders')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('files')
            .select([
              'files.folder_id',
              sql<number | string | null>`max(files.upload_time)`.as('last_upload_time'),
              sql<number | string>`sum(case when files.last_downloaded_admin is null then 1 else 0 end)`.as(
                'undownloaded_count',
              ),
            ])
            .groupBy('files.folder_id')
            .as('file_stats'),
        (join) => join.onRef('file_stats.folder_id', '=', 'folders.id'),
      )
      .leftJoin('folder_quotas', 'folder_quotas.folder_id', 'folders.id')
      .selectAll('folders')
      .select([
        'file_stats.last_upload_time',
        'file_stats.undownloaded_count',
        'folder_quotas.max_bytes',
        'folder_quotas.max_files',
        'folder_quotas.used_bytes',
        'folder_quotas.used_files',
        sql<number | string | null>`(select max(folder_key_epochs.epoch) from folder_key_epochs where folder_key_epochs.folder_id = folders.id)`.as(
          'current_key_epoch',
        ),
      ]);
  }

  // The viewer's role: the owner's own folder, else the member row of the latest manifest.
  function selectForAccount(userId: number) {
    return selectWithStats().select(
      sql<string | null>`case when folders.owner_id = ${userId} then 'owner' else (select folder_members.role from folder_members where folder_members.folder_id = folders.id and folder_members.user_id = ${userId}) end`.as(
        'my_role',
      ),
    );
  }

  const visibleTo = (userId: number) =>
    sql<SqlBool>`(folders.owner_id = ${userId} or exists (select 1 from folder_members where folder_members.folder_id = folders.id and folder_members.user_id = ${userId}))`;

  // Sort expressions per key. Missing values sort by what they mean, the same on both dialects
  // (SQLite and PostgreSQL disagree on where NULLs go): no expiry is later than any date, no
  // upload is earlier than any upload. Ties fall back to the id, so the order is stable.
  function orderTerms(by: FolderSortKey): Expression<unknown>[] {
    switch (by) {
      case 'title':
        return [sql`lower(folders.title)`, sql`folders.title`];
      case 'creation_date':
        return [sql`folders.creation_date`];
      case 'expiration_date':
        return [sql`case when folders.expiration_date is null then 1 else 0 end`, sql`folders.expiration_date`];
      case 'last_upload_time':
        return [sql`case when file_stats.last_upload_time is null then 0 else 1 end`, sql`file_stats.last_upload_time`];
    }
  }

  const ownedBy = (ownerId: number, id: number) =>
    sql<SqlBool>`folders.owner_id = ${ownerId} and folders.id = ${id}`;

  async function findOwned(ownerId: number, id: number): Promise<Folder | undefined> {
    const row = await selectWithStats().where(ownedBy(ownerId, id)).executeTakeFirst();
    return row && toFolder(row);
  }

  return {
    async listForOwner(ownerId: number, sort: FolderSort): Promise<Folder[]> {
      let query = selectWithStats().where('folders.owner_id', '=', ownerId);
      for (const term of [...orderTerms(sort.by), sql`folders.id`]) query = query.orderBy(term, sort.order);
      const rows = await query.execute();
      return rows.map(toFolder);
    },

    /** The folders `userId` owns or is a member of, each with that account's role. */
    async listForAccount(userId: number, sort: FolderSort): Promise<AccountFolder[]> {
      let query = selectForAccount(userId).where(visibleTo(userId));
      for (const term of [...orderTerms(sort.by), sql`folders.id`]) query = query.orderBy(term, sort.order);
      const rows = await query.execute();
      return rows.map(toAccountFolder).filter((folder): folder is AccountFolder => folder !== undefined);
    },

    /** The folder `id` with `userId`'s role in it; undefined when it does not exist or `userId` is neither owner nor member. */
    async findForAccount(userId: number, id: number): Promise<AccountFolder | undefined> {
      const row = await selectForAccount(userId).where('folders.id', '=', id).executeTakeFirst();
      return row && toAccountFolder(row);
    },

    /** The folder, if it exists and belongs to `ownerId`. */
    findOwned,

    /** The folder behind an upload link, whoever owns it (the row alone, see UploadLinkFolder). */
    async findByLinkToken(linkToken: string): Promise<UploadLinkFolder | undefined> {
      const row = await db.selectFrom('folders').selectAll().where('link_token', '=', linkToken).executeTakeFirst();
      return row && toFolderRecord(row);
    },

    /**
     * Claims folders that expired at or before `now` and were not announced yet: each is returned
     * to exactly one caller (the claim is an insert that a second caller's conflicts with).
     */
    async claimExpired(now: number, limit: number): Promise<UploadLinkFolder[]> {
      const rows = await db
        .selectFrom('folders')
        .leftJoin('folder_expiry_events', 'folder_expiry_events.folder_id', 'folders.id')
        .selectAll('folders')
        .where('folders.expiration_date', 'is not', null)
        .where('folders.expiration_date', '<=', now)
        .where('folder_expiry_events.folder_id', 'is', null)
        .orderBy('folders.id')
        .limit(limit)
        .execute();
      return claimEach(rows, async (row) => {
        const inserted = await db
          .insertInto('folder_expiry_events')
          .values({ folder_id: row.id, expired_at: Number(row.expiration_date), announced_at: now })
          .onConflict((conflict) => conflict.column('folder_id').doNothing())
          .executeTakeFirst();
        return claimedOne(inserted) ? toFolderRecord(row) : undefined;
      });
    },

    /** Folders that delete files after some days (retention), with their setting, in id order. */
    async listWithRetention(afterId: number, limit: number): Promise<Array<{ id: number; ownerId: number; title: string; retentionDays: number }>> {
      const rows = await db
        .selectFrom('folders')
        .select(['id', 'owner_id', 'title', 'retention_days'])
        .where('retention_days', 'is not', null)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, ownerId: row.owner_id, title: row.title, retentionDays: Number(row.retention_days) }));
    },

    /**
     * The folder `id`, whoever owns it: for the operator's command line (export-folder), which runs
     * with access to the whole data directory anyway. Routes always go through findOwned.
     */
    async findForOperator(id: number): Promise<UploadLinkFolder | undefined> {
      const row = await db.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toFolderRecord(row);
    },

    /** Creates the folder with its limits' row (holding nothing yet), in one transaction. */
    async create(input: NewFolder): Promise<Folder> {
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('folders')
          .values({
            owner_id: input.ownerId,
            title: input.title,
            description: input.description,
            link_token: input.linkToken,
            link_password_hash: input.linkPasswordHash,
            require_email_verification: flag(input.requireEmailVerification),
            allowed_emails: encodeEmails(input.allowedEmails),
            perform_mime_check: flag(input.performMimeCheck),
            is_active: flag(input.isActive),
            expiration_date: input.expirationDate,
            creation_date: input.creationDate,
            retention_days: input.retentionDays ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertQuota(trx, id, { maxBytes: input.storageLimitBytes ?? null, maxFiles: input.fileLimit ?? null });
        return id;
      });
      const folder = await findOwned(input.ownerId, id);
      if (!folder) throw new Error('created folder not found');
      return folder;
    },

    /** Applies `changes` to the owner's folder (its limits' row too); false when there is no such folder. */
    async updateOwned(ownerId: number, id: number, changes: FolderChanges): Promise<boolean> {
      const values = toColumns(changes);
      const limits = { maxBytes: changes.storageLimitBytes, maxFiles: changes.fileLimit };
      if (Object.keys(values).length === 0 && limits.maxBytes === undefined && limits.maxFiles === undefined) {
        return (await findOwned(ownerId, id)) !== undefined;
      }
      return db.transaction().execute(async (trx) => {
        if (Object.keys(values).length > 0) {
          const result = await trx.updateTable('folders').set(values).where(ownedBy(ownerId, id)).executeTakeFirst();
          if (!claimedOne(result)) return false;
        } else {
          const owned = await trx.selectFrom('folders').select('id').where(ownedBy(ownerId, id)).executeTakeFirst();
          if (!owned) return false;
        }
        await setLimits(trx, id, limits);
        return true;
      });
    },

    /**
     * Deletes the owner's folder with its files and upload sessions (cascade), in one transaction;
     * returns what the caller must remove from storage after the commit (the files' blobs and the
     * unfinished uploads' ids), or undefined when there was no such folder.
     */
    async deleteOwned(ownerId: number, id: number): Promise<{ blobKeys: string[]; uploadIds: string[] } | undefined> {
      return db.transaction().execute(async (trx) => {
        const files = await trx.selectFrom('files').innerJoin('folders', 'folders.id', 'files.folder_id').select('files.blob_key').where(ownedBy(ownerId, id)).execute();
        const uploads = await trx
          .selectFrom('upload_sessions')
          .innerJoin('folders', 'folders.id', 'upload_sessions.folder_id')
          .select('upload_sessions.id')
          .where(ownedBy(ownerId, id))
          .execute();
        const result = await trx.deleteFrom('folders').where(ownedBy(ownerId, id)).executeTakeFirst();
        if (!claimedOne(result)) return undefined;
        return { blobKeys: files.map((file) => file.blob_key), uploadIds: uploads.map((upload) => upload.id) };
      });
    },
  };
}

export type FoldersRepository = ReturnType<typeof createFoldersRepository>;
