// Folders whose expiry has been announced (the folder.expired webhook and activity entry): a row per
// folder, inserted by the one process that claims it, so each expiry is announced once.
import type { SchemaMigration } from './dialect-helpers.ts';

export const folderExpiryEvents: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('folder_expiry_events')
      .addColumn('folder_id', 'integer', (c) => c.primaryKey().references('folders.id').onDelete('cascade'))
      .addColumn('expired_at', 'bigint', (c) => c.notNull())
      .addColumn('announced_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
