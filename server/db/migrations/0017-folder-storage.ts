// Per-folder storage limits and retention, and the ledger that enforces the limits:
// - folders.retention_days (null: files are kept until deleted);
// - folder_quotas: per folder, its limits (max_bytes, max_files; null: no limit) and what it holds
//   against them: the plaintext bytes and the count of its files plus its unfinished uploads plus
//   what multipart requests are still streaming. Taking from it is one conditional UPDATE whose
//   condition reads only this row (limits and usage together), which PostgreSQL re-checks against
//   the row's newest version when a concurrent update got there first; a condition reading the
//   limits from another table through a subquery did not hold there under a burst (it became an
//   anti-join). So parallel uploaders on any number of processes never pass a limit
//   (server/db/repositories/folder-usage.ts);
// - storage_claims: what a multipart request has taken from its folder's ledger while its body
//   streams; the request settles its claim with its file records, and the sweep gives back the
//   claims of requests that died (expires_at).
// Folders that exist already get no limits (the server's defaults apply to new folders), and their
// ledger starts from what they hold.
import { sql } from 'kysely';
import type { SchemaMigration } from './dialect-helpers.ts';

export const folderStorage: SchemaMigration = {
  async up(db) {
    await db.schema.alterTable('folders').addColumn('retention_days', 'integer').execute();

    await db.schema
      .createTable('folder_quotas')
      .addColumn('folder_id', 'integer', (c) => c.primaryKey().references('folders.id').onDelete('cascade'))
      .addColumn('max_bytes', 'bigint')
      .addColumn('max_files', 'integer')
      .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('used_files', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      insert into folder_quotas (folder_id, used_bytes, used_files)
      select folders.id,
        coalesce((select sum(files.file_size) from files where files.folder_id = folders.id), 0)
          + coalesce((select sum(upload_sessions.plain_size) from upload_sessions where upload_sessions.folder_id = folders.id), 0),
        (select count(*) from files where files.folder_id = folders.id)
          + (select count(*) from upload_sessions where upload_sessions.folder_id = folders.id)
      from folders`.execute(db);

    await db.schema
      .createTable('storage_claims')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('files', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('storage_claims_expires_at').on('storage_claims').column('expires_at').execute();
    // Retention finds a folder's oldest files by upload time.
    await db.schema.createIndex('files_folder_upload_time').on('files').columns(['folder_id', 'upload_time']).execute();
  },
};
