// Passkeys (WebAuthn credentials) of accounts. The counter moves only forwards: a sign-in's update
// names the counter it verified against, so two requests racing with one assertion cannot both
// pass.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../schema.ts';
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

export interface NewPasskey {
  userId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  wrappedPrivateKey: string | null;
  wrappedForSpki: string | null;
  now: number;
}

export type PasskeyInsertOutcome = { kind: 'added'; passkey: StoredPasskey } | { kind: 'limit-reached' } | { kind: 'already-registered' };

/** Rolls back an insert that would pass the account's limit (inside add only). */
class LimitReached extends Error {
  readonly code = 'LIMIT_REACHED';
}

function toPasskey(row: Selectable<PasskeysTable>): StoredPasskey {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    name: row.name,
    wrappedPrivateKey: row.wrapped_private_key,
    wrappedForSpki: row.wrapped_for_spki,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

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
        const passkey = await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ id: sql`id` }).where('id', '=', input.userId).execute();
          const counted = await trx
            .selectFrom('passkeys')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('user_id', '=', input.userId)
            .executeTakeFirstOrThrow();
          if (Number(counted.n) >= max) throw new LimitReached();
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
          return toPasskey(row);
        });
        return { kind: 'added', passkey };
      } catch (error) {
        if (error instanceof LimitReached) return { kind: 'limit-reached' };
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
        .where('id', '=', id)
        .where('counter', '=', verifiedAgainst)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(userId: number, id: number, name: string): Promise<StoredPasskey | undefined> {
      const row = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
      return row && toPasskey(row);
    },

    /** Deletes the passkey with its wrapped copy; claims first, so only one request reports it removed. */
    async remove(userId: number, id: number): Promise<StoredPasskey | undefined> {
      const row = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
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
