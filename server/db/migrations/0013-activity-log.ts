// The activity log: what happened in each admin's account, as a hash chain per account. Each entry
// carries the SHA-256 of the previous one (server/activity/chain.ts), so editing, removing or
// reordering a stored entry breaks the chain where it happened (`npm run admin -- verify-activity`).
// No foreign key to folders: the entries of a deleted folder stay.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const activityLog: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('activity_log'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('folder_id', 'integer')
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('ip_hash', 'varchar(64)')
      .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('hash', 'varchar(64)', (c) => c.notNull())
      .addUniqueConstraint('activity_log_user_seq', ['user_id', 'seq'])
      .execute();
    await db.schema.createIndex('activity_log_user_at').on('activity_log').columns(['user_id', 'at']).execute();
    await db.schema.createIndex('activity_log_user_folder').on('activity_log').columns(['user_id', 'folder_id', 'seq']).execute();
  },
};
