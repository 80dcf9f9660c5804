// Accounts of an organisation (docs/api.md, "Organisation"): each account has an organisation role
// (`admin` may invite, disable and enable accounts; `member` may not), may be disabled (sessions
// end, sign-in refused; the row, its folders and links stay), may carry a display name, and
// remembers when it was invited. Every account that exists before this migration was made by the
// operator with the CLI, so all of them become organisation admins: nobody loses what they could do.
//
// `invitations`: one row per invitation sent by e-mail. Only the SHA-256 of its token is kept (the
// token is the link's capability); resending replaces the token, so an older mail stops working.
// Accepting claims the row (accepted_at) and creates the account in one transaction.
import { sql } from 'kysely';
import { withIdColumn, type SchemaMigration } from './dialect-helpers.ts';

export const organisationAccounts: SchemaMigration = {
  async up(db, dialect) {
    await db.schema.alterTable('users').addColumn('org_role', 'varchar(16)', (col) => col.notNull().defaultTo('member')).execute();
    await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('display_name', 'varchar(100)').execute();
    await db.schema.alterTable('users').addColumn('invited_at', 'bigint').execute();
    await db.updateTable('users').set({ org_role: 'admin' }).execute();

    await withIdColumn(db.schema.createTable('invitations'), dialect)
      .addColumn('email', 'varchar(320)', (col) => col.notNull())
      .addColumn('display_name', 'varchar(100)')
      .addColumn('org_role', 'varchar(16)', (col) => col.notNull())
      .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('invited_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('sent_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('accepted_at', 'bigint')
      .addColumn('accepted_user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('revoked_at', 'bigint')
      .execute();
    // At most one open invitation per address (lower-cased): a second invite is a resend.
    await sql`CREATE INDEX invitations_email ON invitations (lower(email))`.execute(db);
  },
};
