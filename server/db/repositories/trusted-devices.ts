// Trusted devices (docs/api.md "Single sign-on"): browsers that keep a copy of their account's
// private key wrapped under a key only they hold. The id is the browser's own random UUID, so a
// retried registration writes the same row again instead of a second one. A copy is answered only
// while the key pair it wraps is the account's (a new key pair leaves old copies unanswered).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, TrustedDevicesTable } from '../schema.ts';
import { changedRows, refusableTransaction } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

export interface TrustedDevice {
  id: string;
  userId: number;
  name: string;
  wrappedForSpki: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface NewTrustedDevice {
  id: string;
  userId: number;
  name: string;
  wrappedPrivateKey: string;
  wrappedForSpki: string;
  now: number;
}

export type DeviceAddOutcome = 'added' | 'limit-reached' | 'key-pair-changed' | 'id-taken';

const toDevice = rowMapper<Selectable<TrustedDevicesTable>, TrustedDevice>()({
  numbers: ['created_at', 'last_used_at'],
  omit: ['wrapped_private_key'],
});

export function createTrustedDevicesRepository(db: Kysely<Database>) {
  return {
    async listForUser(userId: number): Promise<TrustedDevice[]> {
      const rows = await db.selectFrom('trusted_devices').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
      return rows.map(toDevice);
    },

    /**
     * Adds (or, for the same browser again, replaces) a device's copy, unless the account already
     * has `max` devices or its key pair is not the one the copy wraps. The user's row is locked
     * first so that parallel registrations are counted one after the other.
     */
    async add(input: NewTrustedDevice, max: number): Promise<DeviceAddOutcome> {
      return refusableTransaction(db, async (trx, refuse: (answer: DeviceAddOutcome) => never) => {
        const owner = await trx
          .updateTable('users')
          .set({ id: sql`id` })
          .where('id', '=', input.userId)
          .where('public_key_spki', '=', input.wrappedForSpki)
          .executeTakeFirst();
        if (changedRows(owner) !== 1) refuse('key-pair-changed');
        const existing = await trx.selectFrom('trusted_devices').select('user_id').where('id', '=', input.id).executeTakeFirst();
        if (existing && existing.user_id !== input.userId) refuse('id-taken');
        if (existing) {
          await trx
            .updateTable('trusted_devices')
            .set({ name: input.name, wrapped_private_key: input.wrappedPrivateKey, wrapped_for_spki: input.wrappedForSpki })
            .where('id', '=', input.id)
            .execute();
          return 'added' as const;
        }
        const counted = await trx
          .selectFrom('trusted_devices')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', input.userId)
          .executeTakeFirstOrThrow();
        if (Number(counted.n) >= max) refuse('limit-reached');
        await trx
          .insertInto('trusted_devices')
          .values({
            id: input.id,
            user_id: input.userId,
            name: input.name,
            wrapped_private_key: input.wrappedPrivateKey,
            wrapped_for_spki: input.wrappedForSpki,
            created_at: input.now,
            last_used_at: null,
          })
          .execute();
        return 'added' as const;
      });
    },

    /**
     * A device's copy for its account, only while the key pair it wraps is the account's; records
     * the use. Undefined: no such device of this account (removed), or an old key pair's copy.
     */
    async useCopy(userId: number, id: string, now: number): Promise<{ copy: string; forSpki: string } | undefined> {
      const row = await db
        .selectFrom('trusted_devices')
        .innerJoin('users', 'users.id', 'trusted_devices.user_id')
        .select(['trusted_devices.wrapped_private_key', 'trusted_devices.wrapped_for_spki'])
        .where('trusted_devices.id', '=', id)
        .where('trusted_devices.user_id', '=', userId)
        .whereRef('trusted_devices.wrapped_for_spki', '=', 'users.public_key_spki')
        .executeTakeFirst();
      if (!row) return undefined;
      await db.updateTable('trusted_devices').set({ last_used_at: now }).where('id', '=', id).execute();
      return { copy: row.wrapped_private_key, forSpki: row.wrapped_for_spki };
    },

    /** Removes the device and its copy; false when the account has no such device (already removed). */
    async remove(userId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('trusted_devices').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return changedRows(result) === 1;
    },

    /**
     * An SSO account's first key pair: its public key and recovery copy on the account and this
     * browser's device copy, in one transaction, only while the account has no key pair yet.
     */
    async createKeyPair(
      userId: number,
      keys: { publicKeySpki: string; recoveryCopy: string; device: { id: string; name: string; copy: string } },
      now: number,
    ): Promise<'created' | 'has-key-pair'> {
      return refusableTransaction(db, async (trx, refuse: (answer: 'has-key-pair') => never) => {
        const set = await trx
          .updateTable('users')
          .set({ public_key_spki: keys.publicKeySpki, recovery_copy: keys.recoveryCopy, recovery_for_spki: keys.publicKeySpki })
          .where('id', '=', userId)
          .where('public_key_spki', 'is', null)
          .executeTakeFirst();
        if (changedRows(set) !== 1) refuse('has-key-pair');
        await trx.deleteFrom('trusted_devices').where('id', '=', keys.device.id).where('user_id', '=', userId).execute();
        await trx
          .insertInto('trusted_devices')
          .values({
            id: keys.device.id,
            user_id: userId,
            name: keys.device.name,
            wrapped_private_key: keys.device.copy,
            wrapped_for_spki: keys.publicKeySpki,
            created_at: now,
            last_used_at: now,
          })
          .execute();
        return 'created' as const;
      });
    },
  };
}

export type TrustedDevicesRepository = ReturnType<typeof createTrustedDevicesRepository>;
