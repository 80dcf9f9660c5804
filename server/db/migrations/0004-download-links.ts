// Download links of a folder's files, the files each link shares, and password grants (a browser
// that passed a link's password check). Deleting a folder, a file or a link removes what depends
// on it by cascade.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const downloadLinks: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('download_links'), dialect)
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('verifier_hash', 'text')
      .addColumn('reencrypted_keys_json', 'text')
      .addColumn('expiration_date', 'bigint')
      .addColumn('creation_date', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('download_links_folder_id').on('download_links').column('folder_id').execute();

    await db.schema
      .createTable('download_link_files')
      .addColumn('link_id', 'integer', (c) => c.notNull().references('download_links.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('download_link_files_pk', ['link_id', 'file_id'])
      .execute();
    // The cascade from files looks links up by file id.
    await db.schema.createIndex('download_link_files_file_id').on('download_link_files').column('file_id').execute();

    await db.schema
      .createTable('download_link_grants')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('link_id', 'integer', (c) => c.notNull().references('download_links.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('download_link_grants_link_id').on('download_link_grants').column('link_id').execute();
    await db.schema.createIndex('download_link_grants_expires_at').on('download_link_grants').column('expires_at').execute();
  },
};
