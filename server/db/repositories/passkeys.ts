// Passkeys (WebAuthn credentials) of accounts. The counter moves only forwards: a sign-in's update
// names the counter it verified against, so two requests racing with one assertion cannot both
// pass.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../schema.ts';
import { claimedOne, refusableTransaction } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';
import { isUniqueViolation } from '../unique-violation.ts';

export interface StoredPasskey {
  id: number;
  userId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  wrappedPrivateKey: string | null;
  wrappedForSpki: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A passkey to add: all but what the database gives it (id) and the times, which `now` sets. */
export type NewPasskey = Omit<StoredPasskey, 'id' | 'createdAt' | 'lastUsedAt'> & { now: number };

export type PasskeyInsertOutcome = { kind: 'added'; passkey: StoredPasskey } | { kind: 'limit-reached' } | { kind: 'already-registered' };

const toPasskey = rowMapper<Selectable<PasskeysTable>, StoredPasskey>()({
  numbers: ['counter', 'created_at', 'last_used_at'],
  decode: { transports: (transports: string) => (transports === '' ? [] : transports.split(',')) },
});

export function createPasskeysRepository(db: Kysely<Database>) {
  return {
    async listForUser(userId: number): Promise<StoredPasskey[]> {
      const rows = await db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
      return rows.map(toPasskey);
    },

    async findByCredentialId(credentialId: string): Promise<StoredPasskey | undefined> {
      const row = await db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
      return row && toPasskey(row);
    },

    /**
     * Adds a passkey unless the account already has `max`. The user's row is locked first (an
     * update of nothing: a row lock on PostgreSQL, the write lock on SQLite), so parallel
     * registrations are counted one after the other.
     */
    async add(input: NewPasskey, max: number): Promise<PasskeyInsertOutcome> {
      try {
        return await refusableTransaction(db, async (trx, refuse: (answer: { kind: 'limit-reached' }) => never) => {
          await trx.updateTable('users').set({ id: sql`id` }).where('id', '=', input.userId).execute();
          const counted = await trx
            .selectFrom('passkeys')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('user_id', '=', input.userId)
            .executeTakeFirstOrThrow();
          if (Number(counted.n) >= max) refuse({ kind: 'limit-reached' });
          const row = await trx
            .insertInto('passkeys')
            .values({
              user_id: input.userId,
              credential_id: input.credentialId,
              public_key: input.publicKey,
              counter: input.counter,
              transports: input.transports.join(','),
              name: input.name,
              wrapped_private_key: input.wrappedPrivateKey,
              wrapped_for_spki: input.wrappedForSpki,
              created_at: input.now,
              last_used_at: null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return { kind: 'added' as const, passkey: toPasskey(row) };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: 'already-registered' };
        throw error;
      }
    },

    /**
     * Records a verified use: the new counter, only if the stored one is still the one verified
     * against (false: another request used the passkey meanwhile, this use is refused).
     */
    async recordUse(id: number, verifiedAgainst: number, newCounter: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('passkeys')
        .set({ counter: newCounter, last_used_at: now })
        .where((eb) => eb.and({ id, counter: verifiedAgainst }))
        .executeTakeFirst();
      return claimedOne(result);
    },

    async rename(userId: number, id: number, name: string): Promise<StoredPasskey | undefined> {
      const row = await db.updateTable('passkeys').set({ name }).where((eb) => eb.and({ id, user_id: userId })).returningAll().executeTakeFirst();
      return row && toPasskey(row);
    },

    /** Deletes the passkey with its wrapped copy; claims first, so only one request reports it removed. */
    async remove(userId: number, id: number): Promise<StoredPasskey | undefined> {
      const row = await db.deleteFrom('passkeys').where((eb) => eb.and({ id, user_id: userId })).returningAll().executeTakeFirst();
      return row && toPasskey(row);
    },

    /** Every passkey of the account (an operator's password reset). Returns how many there were. */
    async removeAllForUser(userId: number): Promise<number> {
      const rows = await db.deleteFrom('passkeys').where('user_id', '=', userId).returning('id').execute();
      return rows.length;
    },
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
