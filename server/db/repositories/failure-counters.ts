// Fixed-window attempt counters behind every limit on guesses (server/limits/attempt-limiter.ts).
// They live in the database so that every server process sees the same counts, and each change
// is one statement, so parallel requests and processes never lose or double an update.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { deleteExpired } from '../expiry.ts';

export interface FailureCount {
  failures: number;
  resetAt: number;
}

export function createFailureCountersRepository(db: Kysely<Database>) {
  return {
    /** The live count for `key`, or undefined when there is none or its window has passed. */
    async get(key: string, now: number): Promise<FailureCount | undefined> {
      const row = await db
        .selectFrom('failure_counters')
        .select(['failures', 'reset_at'])
        .where('key', '=', key)
        .where('reset_at', '>', now)
        .executeTakeFirst();
      return row && { failures: row.failures, resetAt: row.reset_at };
    },

    /**
     * Adds one attempt in one atomic upsert, starting a new window of `windowMs` when the old one
     * has passed, and returns the count including this attempt.
     */
    async increment(key: string, now: number, windowMs: number): Promise<FailureCount> {
      const row = await db
        .insertInto('failure_counters')
        .values({ key, failures: 1, reset_at: now + windowMs })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when('failure_counters.reset_at', '<=', now)
              .then(sql.lit(1))
              .else(eb('failure_counters.failures', '+', sql.lit(1)))
              .end(),
            reset_at: eb
              .case()
              .when('failure_counters.reset_at', '<=', now)
              .then(eb.ref('excluded.reset_at'))
              .else(eb.ref('failure_counters.reset_at'))
              .end(),
          })),
        )
        .returning(['failures', 'reset_at'])
        .executeTakeFirstOrThrow();
      return { failures: row.failures, resetAt: row.reset_at };
    },

    /**
     * Gives back one attempt counted by `increment`, only in the window it was counted in (a
     * window that has started over since owes nothing back).
     */
    async decrement(key: string, resetAt: number): Promise<void> {
      await db
        .updateTable('failure_counters')
        .set((eb) => ({ failures: eb('failures', '-', sql.lit(1)) }))
        .where('key', '=', key)
        .where('reset_at', '=', resetAt)
        .where('failures', '>', 0)
        .execute();
    },

    async clear(key: string): Promise<void> {
      await db.deleteFrom('failure_counters').where('key', '=', key).execute();
    },

    async deleteExpired(now: number): Promise<void> {
      await deleteExpired(db, 'failure_counters', now, 'reset_at');
    },
  };
}

export type FailureCountersRepository = ReturnType<typeof createFailureCountersRepository>;
