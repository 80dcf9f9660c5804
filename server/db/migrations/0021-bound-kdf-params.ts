// An account's KDF parameter block bound to its username (scheme 3, docs/format.md) carries the
// lower-cased name after the scheme-2 fields, so it is longer than the 64 characters of base64 a
// scheme-2 block needed: up to 720 (contract/auth.ts, KDF_PARAMS_MAX_LENGTH). SQLite does not
// enforce a varchar's length; PostgreSQL does, so only there is the column widened.
import { sql } from 'kysely';
import type { SchemaMigration } from './dialect-helpers.ts';

export const boundKdfParams: SchemaMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await sql`ALTER TABLE users ALTER COLUMN kdf_params TYPE varchar(720)`.execute(db);
  },
};
