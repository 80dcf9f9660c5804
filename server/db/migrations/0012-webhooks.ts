// Signed webhooks: one endpoint per admin and the deliveries queued for it. The signing secret is
// not stored: it is derived from the server's webhook signing key and `secret_nonce`
// (server/webhooks/signing-secret.ts), so a copy of the database cannot forge deliveries.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const webhooks: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('webhook_endpoints'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('secret_nonce', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('webhook_deliveries'), dialect)
      .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_type', 'varchar(40)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('claimed_until', 'bigint')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'varchar(300)')
      .addColumn('completed_at', 'bigint')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
  },
};
