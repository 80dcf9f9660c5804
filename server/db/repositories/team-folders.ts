// Team folders (docs/team-folders.md): signed versions of the member list, key epochs, envelopes
// and the member rows derived from the latest version. A write of a version is one transaction
// whose claim is the insert of (folder_id, seq): of two writers of the same next version exactly
// one stores anything; the other is refused and the caller answers TEAM_CHANGED.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TeamRole } from '../../../contract/team-folders.ts';
import { claimedOne, refusableTransaction } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';
import type { Database, FolderKeyEpochsTable, FolderManifestsTable } from '../schema.ts';

export interface StoredManifest {
  folderId: number;
  seq: number;
  /** base64 of the manifest bytes. */
  manifest: string;
  signature: string;
  hash: string;
  signerId: number | null;
  signerPublicKeySpki: string;
  createdAt: number;
}

export interface KeyEpoch {
  folderId: number;
  epoch: number;
  publicKeySpki: string;
  createdAt: number;
}

export interface TeamMemberRow {
  userId: number;
  username: string;
  displayName: string | null;
  role: TeamRole;
  publicKeySpki: string | null;
  isDisabled: boolean;
  notify: boolean;
}

export interface NewEnvelope {
  userId: number;
  epoch: number;
  envelope: string;
}

export interface NewMember {
  userId: number;
  role: TeamRole;
}

type NewVersion = Omit<StoredManifest, 'folderId' | 'createdAt'>;

export interface ShareInput {
  folderId: number;
  ownerId: number;
  version: NewVersion;
  epoch: { epoch: number; publicKeySpki: string };
  envelopes: readonly NewEnvelope[];
  members: readonly NewMember[];
  rekeyedFiles: ReadonlyArray<{ fileId: number; encryptedKey: string }>;
  now: number;
}

export interface ChangeInput {
  folderId: number;
  version: NewVersion;
  newEpoch: { epoch: number; publicKeySpki: string } | undefined;
  envelopes: readonly NewEnvelope[];
  members: readonly NewMember[];
  now: number;
}

export type ShareOutcome = 'shared' | 'exists' | 'files-changed';
export type ChangeOutcome = 'changed' | 'conflict';

const toManifest = rowMapper<Selectable<FolderManifestsTable>, StoredManifest>()({ numbers: ['seq', 'created_at', 'signer_id'] });
const toEpoch = rowMapper<Selectable<FolderKeyEpochsTable>, KeyEpoch>()({ numbers: ['epoch', 'created_at'] });

// Rows per multi-row INSERT: a few values each, well below both databases' parameter limits.
const INSERT_BATCH = 200;

function inBatches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += INSERT_BATCH) out.push(items.slice(i, i + INSERT_BATCH));
  return out;
}

async function insertVersion(trx: Transaction<Database>, folderId: number, version: NewVersion, now: number): Promise<boolean> {
  const inserted = await trx
    .insertInto('folder_manifests')
    .values({
      folder_id: folderId,
      seq: version.seq,
      manifest: version.manifest,
      signature: version.signature,
      hash: version.hash,
      signer_id: version.signerId,
      signer_public_key_spki: version.signerPublicKeySpki,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(['folder_id', 'seq']).doNothing())
    .executeTakeFirst();
  return claimedOne(inserted);
}

async function insertEpoch(trx: Transaction<Database>, folderId: number, epoch: { epoch: number; publicKeySpki: string }, now: number): Promise<boolean> {
  const inserted = await trx
    .insertInto('folder_key_epochs')
    .values({ folder_id: folderId, epoch: epoch.epoch, public_key_spki: epoch.publicKeySpki, created_at: now })
    .onConflict((conflict) => conflict.columns(['folder_id', 'epoch']).doNothing())
    .executeTakeFirst();
  return claimedOne(inserted);
}

// A member listed again with a new account key gets new envelopes of every epoch: they replace the old ones.
async function insertEnvelopes(trx: Transaction<Database>, folderId: number, envelopes: readonly NewEnvelope[]): Promise<void> {
  for (const batch of inBatches(envelopes)) {
    await trx
      .insertInto('folder_epoch_keys')
      .values(batch.map((envelope) => ({ folder_id: folderId, epoch: envelope.epoch, user_id: envelope.userId, envelope: envelope.envelope })))
      .onConflict((conflict) => conflict.columns(['folder_id', 'user_id', 'epoch']).doUpdateSet((eb) => ({ envelope: eb.ref('excluded.envelope') })))
      .execute();
  }
}

/** Makes the member rows exactly `members` (the latest version); a member who stays keeps their notify choice. */
async function replaceMembers(trx: Transaction<Database>, folderId: number, ownerId: number, members: readonly NewMember[]): Promise<void> {
  const ids = members.map((member) => member.userId);
  await trx.deleteFrom('folder_members').where('folder_id', '=', folderId).where('user_id', 'not in', ids).execute();
  // A removed member's envelopes go with them: they keep whatever copy they made, nothing more.
  await trx.deleteFrom('folder_epoch_keys').where('folder_id', '=', folderId).where('user_id', 'not in', ids).execute();
  for (const member of members) {
    await trx
      .insertInto('folder_members')
      .values({ folder_id: folderId, user_id: member.userId, role: member.role, notify: member.userId === ownerId ? 1 : 0 })
      .onConflict((conflict) => conflict.columns(['folder_id', 'user_id']).doUpdateSet({ role: member.role }))
      .execute();
  }
}

export function createTeamFoldersRepository(db: Kysely<Database>) {
  return {
    /** Every stored version, seq 1 first. */
    async manifests(folderId: number): Promise<StoredManifest[]> {
      const rows = await db.selectFrom('folder_manifests').selectAll().where('folder_id', '=', folderId).orderBy('seq').execute();
      return rows.map(toManifest);
    },

    /** The latest version, or undefined for a personal folder. */
    async head(folderId: number): Promise<StoredManifest | undefined> {
      const row = await db.selectFrom('folder_manifests').selectAll().where('folder_id', '=', folderId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      return row && toManifest(row);
    },

    /** Every epoch, 1 first. */
    async epochs(folderId: number): Promise<KeyEpoch[]> {
      const rows = await db.selectFrom('folder_key_epochs').selectAll().where('folder_id', '=', folderId).orderBy('epoch').execute();
      return rows.map(toEpoch);
    },

    /** The epoch uploads seal to now; undefined for a personal folder. */
    async currentEpoch(folderId: number): Promise<KeyEpoch | undefined> {
      const row = await db.selectFrom('folder_key_epochs').selectAll().where('folder_id', '=', folderId).orderBy('epoch', 'desc').limit(1).executeTakeFirst();
      return row && toEpoch(row);
    },

    /** The envelopes of one member, epoch 1 first. */
    async envelopesOf(folderId: number, userId: number): Promise<Array<{ epoch: number; envelope: string }>> {
      const rows = await db
        .selectFrom('folder_epoch_keys')
        .select(['epoch', 'envelope'])
        .where('folder_id', '=', folderId)
        .where('user_id', '=', userId)
        .orderBy('epoch')
        .execute();
      return rows.map((row) => ({ epoch: Number(row.epoch), envelope: row.envelope }));
    },

    /** Every member's envelopes, by member then epoch (an export carries them all: each opens only with its member's key). */
    async allEnvelopes(folderId: number): Promise<Array<{ userId: number; epoch: number; envelope: string }>> {
      const rows = await db
        .selectFrom('folder_epoch_keys')
        .select(['user_id', 'epoch', 'envelope'])
        .where('folder_id', '=', folderId)
        .orderBy('user_id')
        .orderBy('epoch')
        .execute();
      return rows.map((row) => ({ userId: row.user_id, epoch: Number(row.epoch), envelope: row.envelope }));
    },

    /** The member rows with each account's name, current public key and standing. */
    async members(folderId: number): Promise<TeamMemberRow[]> {
      const rows = await db
        .selectFrom('folder_members')
        .innerJoin('users', 'users.id', 'folder_members.user_id')
        .select([
          'folder_members.user_id',
          'folder_members.role',
          'folder_members.notify',
          'users.username',
          'users.display_name',
          'users.public_key_spki',
          'users.disabled_at',
        ])
        .where('folder_members.folder_id', '=', folderId)
        .orderBy('folder_members.user_id')
        .execute();
      return rows.map((row) => ({
        userId: row.user_id,
        username: row.username,
        displayName: row.display_name,
        role: row.role as TeamRole,
        publicKeySpki: row.public_key_spki,
        isDisabled: row.disabled_at !== null,
        notify: row.notify === 1,
      }));
    },

    /** Sets one member's upload notifications; false when they are not a member. */
    async setNotify(folderId: number, userId: number, notify: boolean): Promise<boolean> {
      const result = await db
        .updateTable('folder_members')
        .set({ notify: notify ? 1 : 0 })
        .where('folder_id', '=', folderId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return claimedOne(result);
    },

    /** Active members who chose to receive the folder's upload notifications. */
    async notifiedMembers(folderId: number): Promise<Array<{ userId: number; username: string; email: string | null; language: string | null }>> {
      const rows = await db
        .selectFrom('folder_members')
        .innerJoin('users', 'users.id', 'folder_members.user_id')
        .select(['users.id', 'users.username', 'users.email', 'users.language'])
        .where('folder_members.folder_id', '=', folderId)
        .where('folder_members.notify', '=', 1)
        .where('users.disabled_at', 'is', null)
        .orderBy('users.id')
        .execute();
      return rows.map((row) => ({ userId: row.id, username: row.username, email: row.email, language: row.language }));
    },

    /**
     * Shares a personal folder: version 1, epoch 1, the envelopes, the member rows and every file
     * key re-sealed to epoch 1, all or nothing. `exists` when the folder has a version already;
     * `files-changed` when its files are not exactly the re-keyed ones (an upload or a delete
     * happened meanwhile: the browser fetches the files and tries again).
     */
    async share(input: ShareInput): Promise<ShareOutcome> {
      const outcome = await refusableTransaction<'shared', ShareOutcome>(db, async (trx, refuse) => {
        // Taking the folder's usage row first makes a parallel upload's insert (which changes it
        // in its own transaction) wait for this one, so the file list read below is the final one.
        await trx.updateTable('folder_quotas').set({ used_files: sql`used_files` }).where('folder_id', '=', input.folderId).execute();
        if (!(await insertVersion(trx, input.folderId, input.version, input.now))) return refuse('exists');
        const files = await trx.selectFrom('files').select(['id', 'key_epoch']).where('folder_id', '=', input.folderId).execute();
        const rekeyed = new Map(input.rekeyedFiles.map((file) => [file.fileId, file.encryptedKey]));
        if (files.length !== rekeyed.size || files.some((file) => file.key_epoch !== null || !rekeyed.has(file.id))) return refuse('files-changed');
        for (const [fileId, encryptedKey] of rekeyed) {
          const updated = await trx
            .updateTable('files')
            .set({ encrypted_key: encryptedKey, key_epoch: input.epoch.epoch })
            .where('id', '=', fileId)
            .where('folder_id', '=', input.folderId)
            .where('key_epoch', 'is', null)
            .executeTakeFirst();
          if (!claimedOne(updated)) return refuse('files-changed');
        }
        if (!(await insertEpoch(trx, input.folderId, input.epoch, input.now))) return refuse('exists');
        await insertEnvelopes(trx, input.folderId, input.envelopes);
        await replaceMembers(trx, input.folderId, input.ownerId, input.members);
        return 'shared';
      });
      return outcome;
    },

    /**
     * Stores the version after `version.seq - 1` with its new epoch and envelopes and derives the
     * member rows from it; `conflict` (nothing stored) when another version took that seq first.
     */
    async change(input: ChangeInput, ownerId: number): Promise<ChangeOutcome> {
      return refusableTransaction<'changed', ChangeOutcome>(db, async (trx, refuse) => {
        if (!(await insertVersion(trx, input.folderId, input.version, input.now))) return refuse('conflict');
        if (input.newEpoch && !(await insertEpoch(trx, input.folderId, input.newEpoch, input.now))) return refuse('conflict');
        await replaceMembers(trx, input.folderId, ownerId, input.members);
        await insertEnvelopes(trx, input.folderId, input.envelopes);
        return 'changed';
      });
    },
  };
}

export type TeamFoldersRepository = ReturnType<typeof createTeamFoldersRepository>;
