// Single sign-on (docs/api.md "Single sign-on", docs/security.md "Single sign-on").
//
// `sso_identities`: which account a provider's subject signs in as (issuer + subject, unique).
//
// `trusted_devices`: browsers an account trusts to unlock its private key without anything typed:
// each holds a copy of the private key wrapped under a non-extractable key that only that browser
// has (docs/format.md); the server keeps the copy and the public key it belongs to. The id is the
// browser's own (a random UUID), so a retried registration is the same row.
//
// `device_approvals`: a new device's request to be given the private key by an unlocked device of
// the same account: its ECDH public key while pending; the approver's public key and the copy
// once approved. Pending and answered requests expire after minutes.
//
// `users.recovery_copy`: the private key wrapped under the account's recovery key, with the
// public key it belongs to. `users.password_sign_in`: 0 for an account made by single sign-on,
// which has no password (its password hash is of a random secret nobody knows).
//
// `sessions.sso`: 1 for a session started by single sign-on, bounded by SSO_SESSION_HOURS and
// ended at the provider too on sign-out.
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const singleSignOn: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('sso_identities'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
      .addColumn('subject', 'varchar(255)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_sign_in_at', 'bigint')
      .addUniqueConstraint('sso_identities_issuer_subject', ['issuer', 'subject'])
      .execute();
    await db.schema.createIndex('sso_identities_user_id').on('sso_identities').column('user_id').execute();

    await db.schema
      .createTable('trusted_devices')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('wrapped_private_key', 'text', (c) => c.notNull())
      .addColumn('wrapped_for_spki', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('trusted_devices_user_id').on('trusted_devices').column('user_id').execute();

    await db.schema
      .createTable('device_approvals')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('requester_spki', 'text', (c) => c.notNull())
      .addColumn('requester_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('approver_spki', 'text')
      .addColumn('wrapped_private_key', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('approved_at', 'bigint')
      .execute();
    await db.schema.createIndex('device_approvals_user_id').on('device_approvals').column('user_id').execute();

    await db.schema.alterTable('users').addColumn('recovery_copy', 'text').execute();
    await db.schema.alterTable('users').addColumn('recovery_for_spki', 'text').execute();
    await db.schema.alterTable('users').addColumn('password_sign_in', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await db.schema.alterTable('sessions').addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
