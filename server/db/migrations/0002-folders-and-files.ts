// Admin folders and the (encrypted) files uploaded into them. Deleting a folder deletes its file
// rows (ON DELETE CASCADE); their blobs are removed by the folder service after the commit.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const foldersAndFiles: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('folders'), dialect)
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('link_password_hash', 'text')
      .addColumn('require_email_verification', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('allowed_emails', 'text')
      .addColumn('perform_mime_check', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('expiration_date', 'bigint')
      .addColumn('creation_date', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('folders_owner_id').on('folders').column('owner_id').execute();

    await withIdColumn(db.schema.createTable('files'), dialect)
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('original_filename', 'text', (c) => c.notNull())
      .addColumn('stored_filename', 'text', (c) => c.notNull())
      .addColumn('relative_path', 'text', (c) => c.notNull().defaultTo('.'))
      .addColumn('file_size', 'bigint', (c) => c.notNull())
      .addColumn('file_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('encrypted_key', 'text', (c) => c.notNull())
      .addColumn('encryption_iv', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('upload_time', 'bigint', (c) => c.notNull())
      .addColumn('last_downloaded_admin', 'bigint')
      .execute();
    await db.schema.createIndex('files_folder_id').on('files').column('folder_id').execute();
  },
};
