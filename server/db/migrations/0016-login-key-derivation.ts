// Zero-knowledge sign-in (docs/security.md). Browsers now derive the login's
// authentication secret from the password with argon2id under the account's parameter block
// (`users.kdf_params`, scheme 2 of docs/format.md) and the server stores argon2id of that secret in
// `password_hash`. Accounts made before have no block (NULL): their hash is still of the password
// itself, until their first sign-in upgrades them (POST /api/auth/upgrade-login).
//
// `server_secrets` holds the key the pre-login answer for unknown usernames is derived from
// (server/auth/prelogin.ts), made here once, so every process of a deployment answers alike.
//
// Sessions end: a session of an account not yet upgraded could not prove the password again
// (verify-password now takes the authentication secret), so everyone signs in once, which upgrades
// the account.
import { randomBytes } from 'node:crypto';
import type { SchemaMigration } from './dialect-helpers.ts';

export const loginKeyDerivation: SchemaMigration = {
  async up(db) {
    await db.schema.alterTable('users').addColumn('kdf_params', 'varchar(64)').execute();
    await db.schema
      .createTable('server_secrets')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'varchar(128)', (c) => c.notNull())
      .execute();
    await db.insertInto('server_secrets').values({ name: 'prelogin', value: randomBytes(32).toString('base64url') }).execute();
    await db.deleteFrom('pending_logins').execute();
    await db.deleteFrom('sessions').execute();
  },
};
