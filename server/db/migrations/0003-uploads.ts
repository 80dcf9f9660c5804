// State of anonymous uploads, all in the database so any server process can serve any request:
// upload grants (passing a link's gates), e-mail verification codes, and resumable (tus) upload
// sessions. Deleting a folder deletes all three by cascade; the bytes of a deleted session are
// left to the orphan sweep.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const uploads: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('upload_grants'), dialect)
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('password_digest', 'varchar(64)')
      .addColumn('email', 'varchar(320)')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('upload_grants_expires_at').on('upload_grants').column('expires_at').execute();

    await withIdColumn(db.schema.createTable('verification_codes'), dialect)
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('email', 'varchar(320)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('salt', 'varchar(32)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('verified_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('verification_codes_folder_email')
      .on('verification_codes')
      .columns(['folder_id', 'email'])
      .execute();

    await db.schema
      .createTable('upload_sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('uploader_email', 'varchar(320)')
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('relative_path', 'text', (c) => c.notNull())
      .addColumn('encrypted_key', 'text', (c) => c.notNull())
      .addColumn('encryption_iv', 'text', (c) => c.notNull())
      .addColumn('plain_size', 'bigint', (c) => c.notNull())
      .addColumn('upload_length', 'bigint', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('upload_sessions_folder_id').on('upload_sessions').column('folder_id').execute();
    await db.schema
      .createIndex('upload_sessions_last_activity_at')
      .on('upload_sessions')
      .column('last_activity_at')
      .execute();
  },
};
