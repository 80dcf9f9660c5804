// Upload notifications: each folder's choice (off, each upload session, daily digest; file names in
// the message or not) and the uploads waiting to be told. An upload event is written when files are
// stored through the upload link; the notifier (server/notifications) sends one message per quiet
// upload session or digest period and then stamps `notified_at`, holding a lease so that one
// process at a time sends.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const uploadNotifications: SchemaMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('folder_notification_settings')
      .addColumn('folder_id', 'integer', (c) => c.primaryKey().references('folders.id').onDelete('cascade'))
      .addColumn('mode', 'varchar(16)', (c) => c.notNull())
      .addColumn('include_file_names', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await withIdColumn(db.schema.createTable('upload_events'), dialect)
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('file_ids_json', 'text', (c) => c.notNull())
      .addColumn('file_count', 'integer', (c) => c.notNull())
      .addColumn('total_bytes', 'bigint', (c) => c.notNull())
      .addColumn('uploader_email', 'varchar(320)')
      /** The origin the upload came to, for the files-screen link when PUBLIC_URL is not set. */
      .addColumn('origin', 'varchar(300)', (c) => c.notNull())
      .addColumn('notified_at', 'bigint')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('upload_events_pending').on('upload_events').columns(['notified_at', 'folder_id']).execute();
  },
};
