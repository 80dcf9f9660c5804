// Leases on work that one process at a time should do (the upload sweep): a row per task naming
// the process that holds it until `expires_at`. Taking a lease is one conditional upsert, the
// same on SQLite and PostgreSQL; a holder that died loses it when it expires.
import type { SchemaMigration } from './dialect-helpers.ts';

export const taskLeases: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('task_leases')
      .addColumn('task', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('holder', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
