// The password sign-in of accounts made before zero-knowledge sign-in closes for good once no such
// account is left (docs/security.md "Accounts made before"). `server_flags` holds facts that, once
// set, stay set; the row 'old_scheme_sign_in_closed' is that closing. A database with no account
// of the old scheme when this runs (every new install) starts closed, so a server or database
// writer that later claims an account is of the old scheme finds no route that takes a password.
import type { SchemaMigration } from './dialect-helpers.ts';

export const oldSchemeSignInClosing: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('server_flags')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('set_at', 'bigint', (c) => c.notNull())
      .execute();
    const oldScheme = await db.selectFrom('users').select('id').where('kdf_params', 'is', null).limit(1).executeTakeFirst();
    if (!oldScheme) await db.insertInto('server_flags').values({ name: 'old_scheme_sign_in_closed', set_at: Date.now() }).execute();
  },
};
