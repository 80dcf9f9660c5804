// The organisation recovery policy (docs/api.md "Organisation recovery", docs/security.md): off
// unless an organisation admin turns it on.
//
// `org_recovery_keys`: the organisation key while the policy is on, at most one row (`slot` is
// always 1, so of two admins turning it on at once one insert wins). `key_id` names this key
// pair: a copy made for an older key (the policy turned off and on again) is refused.
//
// `org_recovery_admin_copies`: the organisation private key sealed to an admin's account key, one
// per admin, with the public key it is sealed to. `org_recovery_member_copies`: a member's private
// key sealed to the organisation key, one per member, with the member's public key it belongs to.
// Both reference the key they belong to and go with it (turning the policy off deletes the key row).
import { sql } from 'kysely';
import type { SchemaMigration } from './dialect-helpers.ts';

export const organisationRecovery: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('org_recovery_keys')
      .addColumn('slot', 'integer', (c) => c.primaryKey())
      .addColumn('key_id', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('public_key_spki', 'text', (c) => c.notNull())
      .addColumn('enabled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('enabled_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('org_recovery_keys_one_slot', sql`slot = 1`)
      .execute();

    await db.schema
      .createTable('org_recovery_admin_copies')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('key_id', 'varchar(36)', (c) => c.notNull().references('org_recovery_keys.key_id').onDelete('cascade'))
      .addColumn('wrapped_for_spki', 'text', (c) => c.notNull())
      .addColumn('copy', 'text', (c) => c.notNull())
      .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('org_recovery_member_copies')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('key_id', 'varchar(36)', (c) => c.notNull().references('org_recovery_keys.key_id').onDelete('cascade'))
      .addColumn('wrapped_for_spki', 'text', (c) => c.notNull())
      .addColumn('copy', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('org_recovery_member_copies_key_id').on('org_recovery_member_copies').column('key_id').execute();
    await db.schema.createIndex('org_recovery_admin_copies_key_id').on('org_recovery_admin_copies').column('key_id').execute();
  },
};
