// Users, sessions and the small tables behind login security: accepted TOTP steps (replay
// protection), failure counters (rate limits shared by every server process) and pending 2FA logins.
import { sql } from 'kysely';
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const usersAndSessions: SchemaMigration = {
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('users'), dialect)
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('email', 'varchar(320)')
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('totp_secret', 'text')
      .addColumn('is_2fa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('public_key_spki', 'text')
      .addColumn('encrypted_private_key', 'text')
      .addColumn('kdf_salt', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Usernames are unique regardless of case ("Alice" and "alice" are one account).
    await db.schema
      .createIndex('users_username_lower_unique')
      .on('users')
      .unique()
      .expression(sql`lower(username)`)
      .execute();

    await withIdColumn(db.schema.createTable('sessions'), dialect)
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('totp_used_steps')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('step', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('totp_used_steps_pk', ['user_id', 'step'])
      .execute();

    await db.schema
      .createTable('failure_counters')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('failure_counters_reset_at').on('failure_counters').column('reset_at').execute();

    await db.schema
      .createTable('pending_logins')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('pending_logins_pk', ['user_id', 'browser_hash'])
      .execute();
  },
};
