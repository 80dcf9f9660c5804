// Download links: a set of files of one folder shared with an outside recipient through an
// unguessable token, optionally behind a password (stored only as a hash of the browser-derived
// verifier) and an expiry. Deleting a folder or a file removes it from links by cascade.
// Grants record a passed password check for one browser (the cookie token is stored hashed).
import type { Kysely, Transaction } from 'kysely';
import type { Database, DownloadLinkRow } from '../schema.ts';
import { claimedOne, refusableTransaction } from '../claims.ts';
import { deleteExpired, hasLiveRow } from '../expiry.ts';
import { rowMapper } from '../row-mapping.ts';

export interface DownloadLink {
  id: number;
  linkToken: string;
  folderId: number;
  ownerId: number;
  /** argon2id hash of the password verifier; null for a link without password. Never leaves the server. */
  verifierHash: string | null;
  /** JSON map of file id to wrapped key; null for a link without password (keys are in the URL fragment). */
  reencryptedKeysJson: string | null;
  expirationDate: number | null;
  creationDate: number;
  /** Fetches allowed per file, each recipient counted once; null: no limit. */
  maxDownloads: number | null;
}

export type NewDownloadLink = Omit<DownloadLink, 'id' | 'maxDownloads'> & { maxDownloads?: number | null; fileIds: readonly number[] };

export interface LinkedFile {
  id: number;
  originalFilename: string;
  /** Plaintext size in bytes. */
  fileSize: number;
  /** base64 IV of the file's ciphertext (not secret; the recipient's browser needs it to decrypt). */
  encryptionIv: string;
  /** Recipients counted for this file of the link. */
  downloadCount: number;
  lastDownloadAt: number | null;
}

/** What counting one download decided: counted now, counted before, or over the limit. */
export type FetchClaim = 'counted' | 'repeat' | 'exhausted';

export interface DownloadLinkWithFiles extends DownloadLink {
  files: LinkedFile[];
}

const toDownloadLink = rowMapper<DownloadLinkRow, DownloadLink>()({ numbers: ['expiration_date', 'creation_date', 'max_downloads'] });

interface LinkedFileRow {
  /** The link the row was read for: grouping only, not part of the file. */
  link_id: number;
  id: number;
  original_filename: string;
  file_size: number | string | bigint;
  encryption_iv: string;
  download_count: number | string | bigint;
  last_download_at: number | string | bigint | null;
}

const toLinkedFile = rowMapper<LinkedFileRow, LinkedFile>()({
  numbers: ['file_size', 'download_count', 'last_download_at'],
  omit: ['link_id'],
});

// Rows per INSERT of link files: well below SQLite's and PostgreSQL's bound-parameter limits.
const INSERT_BATCH = 500;

/**
 * Writes a recipient's fetch row of a file, inserted or updated, but never once the download was
 * counted: a counted row is final, whatever a later range or a second claim would write.
 */
function upsertWhileUncounted(
  trx: Transaction<Database>,
  key: { linkId: number; fileId: number; recipientHash: string; now: number },
  set: { served_ranges: string | null; counted_at: number | null },
) {
  return trx
    .insertInto('download_link_fetches')
    .values({ link_id: key.linkId, file_id: key.fileId, recipient_hash: key.recipientHash, fetched_at: key.now, ...set })
    .onConflict((conflict) =>
      conflict
        .columns(['link_id', 'file_id', 'recipient_hash'])
        .doUpdateSet(set)
        .where('download_link_fetches.counted_at', 'is', null),
    )
    .executeTakeFirst();
}

export function createDownloadLinksRepository(db: Kysely<Database>) {
  function linkedFiles(linkIds: readonly number[]) {
    return db
      .selectFrom('download_link_files')
      .innerJoin('files', 'files.id', 'download_link_files.file_id')
      .select([
        'download_link_files.link_id',
        'files.id',
        'files.original_filename',
        'files.file_size',
        'files.encryption_iv',
        'download_link_files.download_count',
        'download_link_files.last_download_at',
      ])
      .where('download_link_files.link_id', 'in', linkIds)
      .orderBy('files.id', 'asc')
      .execute();
  }

  return {
    /** Creates the link and its file list in one transaction. */
    async create(input: NewDownloadLink): Promise<DownloadLink> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('download_links')
          .values({
            link_token: input.linkToken,
            folder_id: input.folderId,
            owner_id: input.ownerId,
            verifier_hash: input.verifierHash,
            reencrypted_keys_json: input.reencryptedKeysJson,
            expiration_date: input.expirationDate,
            creation_date: input.creationDate,
            max_downloads: input.maxDownloads ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        for (let i = 0; i < input.fileIds.length; i += INSERT_BATCH) {
          const batch = input.fileIds.slice(i, i + INSERT_BATCH);
          await trx
            .insertInto('download_link_files')
            .values(batch.map((fileId) => ({ link_id: row.id, file_id: fileId })))
            .execute();
        }
        return toDownloadLink(row);
      });
    },

    async findByToken(linkToken: string): Promise<DownloadLink | undefined> {
      const row = await db.selectFrom('download_links').selectAll().where('link_token', '=', linkToken).executeTakeFirst();
      return row && toDownloadLink(row);
    },

    /** The folder's links that have not expired at `now`, newest first, each with its files. */
    async listActiveForFolder(ownerId: number, folderId: number, now: number): Promise<DownloadLinkWithFiles[]> {
      const rows = await db
        .selectFrom('download_links')
        .selectAll()
        .where((eb) => eb.and([eb.and({ owner_id: ownerId, folder_id: folderId }), eb.or([eb('expiration_date', 'is', null), eb('expiration_date', '>', now)])]))
        .orderBy('creation_date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      if (rows.length === 0) return [];
      const files = await linkedFiles(rows.map((row) => row.id));
      const byLink = new Map<number, LinkedFile[]>();
      for (const file of files) {
        const list = byLink.get(file.link_id) ?? [];
        list.push(toLinkedFile(file));
        byLink.set(file.link_id, list);
      }
      return rows.map((row) => ({ ...toDownloadLink(row), files: byLink.get(row.id) ?? [] }));
    },

    /** The files still in the link (a file deleted since creation drops out), by id. */
    async listFiles(linkId: number): Promise<LinkedFile[]> {
      const files = await linkedFiles([linkId]);
      return files.map(toLinkedFile);
    },

    /** Ids of the link's files this recipient has been counted for. */
    async fetchedBy(linkId: number, recipientHash: string): Promise<Set<number>> {
      const rows = await db
        .selectFrom('download_link_fetches')
        .select('file_id')
        .where('link_id', '=', linkId)
        .where('recipient_hash', '=', recipientHash)
        .where('counted_at', 'is not', null)
        .execute();
      return new Set(rows.map((row) => row.file_id));
    },

    /** What this recipient has had of the file: counted already, or the ranges sent so far (JSON). */
    async receiptOf(linkId: number, fileId: number, recipientHash: string): Promise<{ counted: boolean; servedRanges: string | null }> {
      const row = await db
        .selectFrom('download_link_fetches')
        .select(['served_ranges', 'counted_at'])
        .where('link_id', '=', linkId)
        .where('file_id', '=', fileId)
        .where('recipient_hash', '=', recipientHash)
        .executeTakeFirst();
      return { counted: row?.counted_at != null, servedRanges: row?.served_ranges ?? null };
    },

    /**
     * Stores the ranges sent to a recipient not yet counted for the file: `merge` gets what is
     * stored and returns the new value, in one transaction. A recipient counted meanwhile is left
     * alone. The link's stale uncounted rows go first, so they do not pile up over a link's life.
     */
    async recordServed(input: {
      linkId: number;
      fileId: number;
      recipientHash: string;
      now: number;
      /** Rows of recipients never counted whose first bytes went out before this are forgotten (their cookie has lapsed). */
      forgetBefore: number;
      merge: (stored: string | null) => string;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('download_link_fetches')
          .where('link_id', '=', input.linkId)
          .where('counted_at', 'is', null)
          .where('fetched_at', '<', input.forgetBefore)
          .execute();
        const row = await trx
          .selectFrom('download_link_fetches')
          .select(['served_ranges', 'counted_at'])
          .where('link_id', '=', input.linkId)
          .where('file_id', '=', input.fileId)
          .where('recipient_hash', '=', input.recipientHash)
          .executeTakeFirst();
        if (row?.counted_at != null) return;
        await upsertWhileUncounted(trx, input, { served_ranges: input.merge(row?.served_ranges ?? null), counted_at: null });
      });
    },

    /**
     * Counts a recipient's download of a file, atomically across processes: the recipient's row
     * is marked counted (inserted, or updated while not yet counted; a recipient counted before
     * costs nothing), then the file's counter is raised only while it is below the limit; when it
     * is not, the transaction rolls the mark back. On PostgreSQL the conditional UPDATE re-reads
     * the row after waiting for a concurrent claim, so N parallel downloads of a 1-download link
     * count exactly one.
     */
    async claimFetch(input: { linkId: number; fileId: number; recipientHash: string; maxDownloads: number | null; now: number }): Promise<FetchClaim> {
      // Over the limit, the refusal rolls the recipient's mark back.
      return refusableTransaction(db, async (trx, refuse: (answer: 'exhausted') => never): Promise<FetchClaim> => {
        const marked = await upsertWhileUncounted(trx, input, { served_ranges: null, counted_at: input.now });
        if (!claimedOne(marked)) return 'repeat';
        let update = trx
          .updateTable('download_link_files')
          .set((eb) => ({ download_count: eb('download_count', '+', 1), last_download_at: input.now }))
          .where('link_id', '=', input.linkId)
          .where('file_id', '=', input.fileId);
        if (input.maxDownloads !== null) update = update.where('download_count', '<', input.maxDownloads);
        if (!claimedOne(await update.executeTakeFirst())) refuse('exhausted');
        return 'counted';
      });
    },

    /** Deletes the owner's link; false when there is no such link of this owner. */
    async deleteOwned(ownerId: number, linkToken: string): Promise<boolean> {
      const result = await db.deleteFrom('download_links').where('owner_id', '=', ownerId).where('link_token', '=', linkToken).executeTakeFirst();
      return claimedOne(result);
    },
  };
}

export function createDownloadLinkGrantsRepository(db: Kysely<Database>) {
  return {
    async create(input: { tokenHash: string; linkId: number; expiresAt: number; now: number }): Promise<void> {
      await deleteExpired(db, 'download_link_grants', input.now, 'expires_at');
      await db
        .insertInto('download_link_grants')
        .values({ token_hash: input.tokenHash, link_id: input.linkId, expires_at: input.expiresAt })
        .execute();
    },

    /** True when the grant exists for this link and has not expired. */
    async isValid(tokenHash: string, linkId: number, now: number): Promise<boolean> {
      return hasLiveRow(db, 'download_link_grants', { token_hash: tokenHash, link_id: linkId }, now);
    },
  };
}

export type DownloadLinksRepository = ReturnType<typeof createDownloadLinksRepository>;
export type DownloadLinkGrantsRepository = ReturnType<typeof createDownloadLinkGrantsRepository>;
