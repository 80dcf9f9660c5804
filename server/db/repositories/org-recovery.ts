// The organisation recovery policy (docs/api.md "Organisation recovery"): the organisation key
// while the policy is on, the admins' copies of its private key and the members' copies of theirs.
// The server keeps copies it cannot open. Every write that depends on the policy locks the key's
// row first and checks that it is still the key the copy was made for; turning the policy off
// claims that row the same way, deletes every copy and then the key (and the copies' foreign keys
// cascade with it). So of a deposit and a turning-off that race, either the deposit commits first
// and is then deleted, or it waits and finds no key and is refused: no copy outlives the policy.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import { changedRows, refusableTransaction } from '../claims.ts';

export interface OrgRecoveryKey {
  keyId: string;
  publicKeySpki: string;
  enabledBy: number | null;
  enabledByName: string | null;
  enabledAt: number;
}

/** Who holds what, for the members screen: each admin's copy and each account's copy, valid or not. */
export interface OrgRecoveryOverview {
  admins: Array<{ id: number; username: string; publicKeySpki: string | null; hasCopy: boolean }>;
  members: Array<{ id: number; hasCopy: boolean; pendingApprovals: number }>;
}

export type EnableOutcome = 'enabled' | 'already-on' | 'key-pair-changed';
export type DepositOutcome = 'stored' | 'off' | 'key-changed' | 'key-pair-changed';
export type GrantOutcome = DepositOutcome | 'not-admin';

const SLOT = 1;

/** Locks the key's row (so a turning-off waits, or has happened) and says whether `keyId` is still it. */
async function lockKey(trx: Transaction<Database>, keyId: string): Promise<'ok' | 'off' | 'key-changed'> {
  const row = await trx.updateTable('org_recovery_keys').set({ slot: sql`slot` }).where('slot', '=', SLOT).returning('key_id').executeTakeFirst();
  if (!row) return 'off';
  return row.key_id === keyId ? 'ok' : 'key-changed';
}

/** Locks the account's row while its public key is `spki` (a copy belongs to that key pair). */
async function lockAccountWithKey(trx: Transaction<Database>, userId: number, spki: string, adminOnly = false): Promise<boolean> {
  let query = trx.updateTable('users').set({ id: sql`id` }).where('id', '=', userId).where('public_key_spki', '=', spki).where('disabled_at', 'is', null);
  if (adminOnly) query = query.where('org_role', '=', 'admin');
  return changedRows(await query.executeTakeFirst()) === 1;
}

export function createOrgRecoveryRepository(db: Kysely<Database>) {
  return {
    async current(): Promise<OrgRecoveryKey | undefined> {
      const row = await db
        .selectFrom('org_recovery_keys')
        .leftJoin('users', 'users.id', 'org_recovery_keys.enabled_by')
        .select(['org_recovery_keys.key_id', 'org_recovery_keys.public_key_spki', 'org_recovery_keys.enabled_by', 'org_recovery_keys.enabled_at', 'users.username'])
        .where('org_recovery_keys.slot', '=', SLOT)
        .executeTakeFirst();
      if (!row) return undefined;
      return { keyId: row.key_id, publicKeySpki: row.public_key_spki, enabledBy: row.enabled_by, enabledByName: row.username ?? null, enabledAt: Number(row.enabled_at) };
    },

    /**
     * Turns the policy on with a new key and the enabling admin's copy of its private key, in one
     * transaction: refused when it is on already (one of two admins racing wins) or when `adminSpki`
     * is no longer the admin's public key.
     */
    async enable(input: { keyId: string; publicKeySpki: string; adminId: number; adminSpki: string; adminCopy: string; now: number }): Promise<EnableOutcome> {
      return refusableTransaction(db, async (trx, refuse: (answer: EnableOutcome) => never) => {
        // The key's row first, then the account's, in the order deposits and grants lock them.
        const inserted = await trx
          .insertInto('org_recovery_keys')
          .values({ slot: SLOT, key_id: input.keyId, public_key_spki: input.publicKeySpki, enabled_by: input.adminId, enabled_at: input.now })
          .onConflict((oc) => oc.column('slot').doNothing())
          .executeTakeFirst();
        if (changedRows(inserted) !== 1) refuse('already-on');
        if (!(await lockAccountWithKey(trx, input.adminId, input.adminSpki, true))) refuse('key-pair-changed');
        await trx.deleteFrom('org_recovery_admin_copies').where('user_id', '=', input.adminId).execute();
        await trx
          .insertInto('org_recovery_admin_copies')
          .values({ user_id: input.adminId, key_id: input.keyId, wrapped_for_spki: input.adminSpki, copy: input.adminCopy, granted_by: input.adminId, created_at: input.now })
          .execute();
        return 'enabled' as const;
      });
    },

    /**
     * Turns the policy off: claims the key's row first (locking it, as every deposit and grant
     * must, so none gets in after this), deletes every copy, then the key. Answers the key it
     * removed with how many member copies it held, or undefined when it was off already (of two
     * racing, the second finds no row once the first committed).
     */
    async disable(): Promise<{ keyId: string; memberCopies: number } | undefined> {
      return db.transaction().execute(async (trx) => {
        const claimed = await trx.updateTable('org_recovery_keys').set({ slot: sql`slot` }).where('slot', '=', SLOT).returning('key_id').executeTakeFirst();
        if (!claimed) return undefined;
        const members = await trx.deleteFrom('org_recovery_member_copies').executeTakeFirst();
        await trx.deleteFrom('org_recovery_admin_copies').execute();
        // The copies' foreign keys (ON DELETE CASCADE) would take any left with the key as well.
        await trx.deleteFrom('org_recovery_keys').where('slot', '=', SLOT).execute();
        return { keyId: claimed.key_id, memberCopies: changedRows(members) };
      });
    },

    /** Stores (or replaces) a member's copy for key `keyId`, only while the policy is on with that key and `wrappedForSpki` is the member's key pair. */
    async depositMemberCopy(input: { userId: number; keyId: string; wrappedForSpki: string; copy: string; now: number }): Promise<DepositOutcome> {
      return refusableTransaction(db, async (trx, refuse: (answer: DepositOutcome) => never) => {
        const key = await lockKey(trx, input.keyId);
        if (key !== 'ok') refuse(key);
        if (!(await lockAccountWithKey(trx, input.userId, input.wrappedForSpki))) refuse('key-pair-changed');
        await trx
          .insertInto('org_recovery_member_copies')
          .values({ user_id: input.userId, key_id: input.keyId, wrapped_for_spki: input.wrappedForSpki, copy: input.copy, created_at: input.now })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ key_id: input.keyId, wrapped_for_spki: input.wrappedForSpki, copy: input.copy, created_at: input.now }))
          .execute();
        return 'stored' as const;
      });
    },

    /** A member's copy for the current key and their current key pair, if they have one. */
    async memberCopyOf(userId: number): Promise<{ keyId: string; copy: string; forSpki: string } | undefined> {
      const row = await db
        .selectFrom('org_recovery_member_copies as c')
        .innerJoin('org_recovery_keys as k', 'k.key_id', 'c.key_id')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select(['c.key_id', 'c.copy', 'c.wrapped_for_spki'])
        .where('c.user_id', '=', userId)
        .whereRef('c.wrapped_for_spki', '=', 'u.public_key_spki')
        .executeTakeFirst();
      return row && { keyId: row.key_id, copy: row.copy, forSpki: row.wrapped_for_spki };
    },

    /**
     * An admin gives another organisation admin a copy of the organisation private key: only while
     * the policy is on with `keyId`, to an active organisation admin whose public key is `wrappedForSpki`.
     */
    async grantAdminCopy(input: { targetId: number; keyId: string; wrappedForSpki: string; copy: string; grantedBy: number; now: number }): Promise<GrantOutcome> {
      return refusableTransaction(db, async (trx, refuse: (answer: GrantOutcome) => never) => {
        const key = await lockKey(trx, input.keyId);
        if (key !== 'ok') refuse(key);
        const target = await trx.selectFrom('users').select(['org_role', 'disabled_at']).where('id', '=', input.targetId).executeTakeFirst();
        if (!target || target.org_role !== 'admin' || target.disabled_at !== null) refuse('not-admin');
        if (!(await lockAccountWithKey(trx, input.targetId, input.wrappedForSpki, true))) refuse('key-pair-changed');
        await trx
          .insertInto('org_recovery_admin_copies')
          .values({ user_id: input.targetId, key_id: input.keyId, wrapped_for_spki: input.wrappedForSpki, copy: input.copy, granted_by: input.grantedBy, created_at: input.now })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ key_id: input.keyId, wrapped_for_spki: input.wrappedForSpki, copy: input.copy, granted_by: input.grantedBy, created_at: input.now }))
          .execute();
        return 'stored' as const;
      });
    },

    /** An admin's copy of the current organisation private key, while it is sealed to their current key pair. */
    async adminCopyOf(userId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('org_recovery_admin_copies as c')
        .innerJoin('org_recovery_keys as k', 'k.key_id', 'c.key_id')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select('c.copy')
        .where('c.user_id', '=', userId)
        .whereRef('c.wrapped_for_spki', '=', 'u.public_key_spki')
        .executeTakeFirst();
      return row?.copy;
    },

    /** Active organisation admins with whether each holds a valid copy; every account with a valid copy or an open approval request. */
    async overview(now: number): Promise<OrgRecoveryOverview> {
      const admins = await db
        .selectFrom('users as u')
        .leftJoin('org_recovery_admin_copies as c', (join) => join.onRef('c.user_id', '=', 'u.id').onRef('c.wrapped_for_spki', '=', 'u.public_key_spki'))
        .leftJoin('org_recovery_keys as k', 'k.key_id', 'c.key_id')
        .select(['u.id', 'u.username', 'u.public_key_spki', 'k.key_id'])
        .where('u.org_role', '=', 'admin')
        .where('u.disabled_at', 'is', null)
        .orderBy('u.id')
        .execute();
      const copies = await db
        .selectFrom('org_recovery_member_copies as c')
        .innerJoin('org_recovery_keys as k', 'k.key_id', 'c.key_id')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select('c.user_id')
        .whereRef('c.wrapped_for_spki', '=', 'u.public_key_spki')
        .execute();
      const pending = await db
        .selectFrom('device_approvals')
        .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('approved_at', 'is', null)
        .where('expires_at', '>', now)
        .groupBy('user_id')
        .execute();
      const members = new Map<number, { id: number; hasCopy: boolean; pendingApprovals: number }>();
      const entry = (id: number) => members.get(id) ?? members.set(id, { id, hasCopy: false, pendingApprovals: 0 }).get(id)!;
      for (const copy of copies) entry(copy.user_id).hasCopy = true;
      for (const row of pending) entry(row.user_id).pendingApprovals = Number(row.n);
      return {
        admins: admins.map((row) => ({ id: row.id, username: row.username, publicKeySpki: row.public_key_spki, hasCopy: row.key_id !== null })),
        members: [...members.values()].sort((a, b) => a.id - b.id),
      };
    },
  };
}

export type OrgRecoveryRepository = ReturnType<typeof createOrgRecoveryRepository>;
