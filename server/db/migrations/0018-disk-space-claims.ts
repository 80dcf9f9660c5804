// The disk store's free-space reserve shared by every process on one data directory
// (storage/free-space.ts): disk_space_claims holds, per writer, the bytes it has been granted and
// not yet written, until expires_at (a writer renews it while it writes; one that died holds it no
// longer than that). disk_space_turn is one row that a writer updates first in the transaction
// that grants it room: the update makes writers of every process take their turns (SQLite's write
// lock, PostgreSQL's row lock), so each one sums the others' committed claims before it adds its own.
import type { SchemaMigration } from './dialect-helpers.ts';

export const diskSpaceClaims: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('disk_space_claims')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('disk_space_claims_expires_at').on('disk_space_claims').column('expires_at').execute();
    await db.schema
      .createTable('disk_space_turn')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('turn', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('disk_space_turn').values({ id: 1, turn: 0 }).execute();
  },
};
