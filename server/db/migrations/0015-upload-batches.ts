// Idempotency keys of multipart upload requests: per link's folder, the key a client
// sent with a batch and the answer the batch got, so that a repeat of a batch whose answer was
// lost is answered the same instead of storing its files again. Rows expire in the upload sweep.
import type { SchemaMigration } from './dialect-helpers.ts';

export const uploadBatches: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('upload_batches')
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('idempotency_key', 'varchar(128)', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('upload_batches_pk', ['folder_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('upload_batches_created').on('upload_batches').column('created_at').execute();
  },
};
