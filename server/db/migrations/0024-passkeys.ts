// Passkeys (docs/api.md "Passkeys", docs/security.md "Passkeys").
//
// `passkeys`: one row per WebAuthn credential of an account: its id (base64url, unique over the
// whole server: a credential names its account at a discoverable sign-in), COSE public key, the
// signature counter last seen, and, for authenticators with PRF, the private key wrapped under a
// key derived from the PRF output (opaque to the server) with the public key it belongs to.
//
// `passkey_challenges`: every challenge handed out, by SHA-256, single use (used_at set by the
// request that claims it) and expiring; a sign-in challenge is bound to the browser that asked for
// it (hash of its csrftoken cookie), the others to the signed-in user. Used rows stay until they
// expire, so that a second use is told apart from an unknown challenge.
//
// `sessions.reauthenticated_at`: when this session last proved the password or a passkey again;
// adding, renaming and removing passkeys needs that to be recent.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const passkeys: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('passkeys'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'varchar(200)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('wrapped_private_key', 'text')
      .addColumn('wrapped_for_spki', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute();

    await db.schema
      .createTable('passkey_challenges')
      .addColumn('challenge_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('browser_hash', 'varchar(64)')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkey_challenges_expires_at').on('passkey_challenges').column('expires_at').execute();

    await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'bigint').execute();
  },
};
