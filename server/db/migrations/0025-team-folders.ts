// Team folders (docs/team-folders.md). A folder nobody shared has no rows in these tables and its
// files keep key_epoch NULL (sealed to the owner's account key), exactly as before.
//
// `folder_manifests`: every signed version of a folder's member list, by (folder_id, seq). The
// primary key is the claim of a conditional write: of two managers storing version n+1 at once,
// one insert meets the other's row and that request answers TEAM_CHANGED. `hash` is the SHA-256
// of the manifest bytes (the next version's `prev`); the signer's account SPKI is kept as it was
// when the version was stored, so a later key change of that account does not break old links.
//
// `folder_key_epochs`: the public key of each epoch (uploads seal file keys to the current one).
// `folder_epoch_keys`: one envelope per (epoch, member): the epoch's private key sealed to that
// member's account key; the server cannot open it.
// `folder_members`: the member rows of the latest version (derived by the server from it, so
// access checks are one indexed lookup), with each member's own choice of upload notifications.
// `files.key_epoch`, `upload_sessions.key_epoch`: the epoch a file key is sealed to.
import type { SchemaMigration } from './dialect-helpers.ts';

export const teamFolders: SchemaMigration = {
  async up(db) {
    await db.schema
      .createTable('folder_manifests')
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('manifest', 'text', (c) => c.notNull())
      .addColumn('signature', 'text', (c) => c.notNull())
      .addColumn('hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('signer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('signer_public_key_spki', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('folder_manifests_pk', ['folder_id', 'seq'])
      .execute();

    await db.schema
      .createTable('folder_key_epochs')
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('epoch', 'integer', (c) => c.notNull())
      .addColumn('public_key_spki', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('folder_key_epochs_pk', ['folder_id', 'epoch'])
      .execute();

    await db.schema
      .createTable('folder_epoch_keys')
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('epoch', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('envelope', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('folder_epoch_keys_pk', ['folder_id', 'user_id', 'epoch'])
      .execute();

    await db.schema
      .createTable('folder_members')
      .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('folder_members_pk', ['folder_id', 'user_id'])
      .execute();
    await db.schema.createIndex('folder_members_user_id').on('folder_members').column('user_id').execute();

    await db.schema.alterTable('files').addColumn('key_epoch', 'integer').execute();
    await db.schema.alterTable('upload_sessions').addColumn('key_epoch', 'integer').execute();
  },
};
