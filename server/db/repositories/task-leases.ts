// Leases on one-process-at-a-time tasks (table task_leases). `take` succeeds for one caller while
// the lease is free or expired: an insert, or an update only where the current lease has expired
// or is already the caller's, in one statement, so two processes racing cannot both win.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { changedRows } from '../claims.ts';

export function createTaskLeasesRepository(db: Kysely<Database>) {
  return {
    /** Takes (or renews) `task` for `holder` until `now + ttlMs`; false when another holds it. */
    async take(task: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
      const taken = await db
        .insertInto('task_leases')
        .values({ task, holder, expires_at: now + ttlMs })
        .onConflict((oc) =>
          oc
            .column('task')
            .doUpdateSet({ holder, expires_at: now + ttlMs })
            .where((eb) => eb.or([eb('task_leases.expires_at', '<=', now), eb('task_leases.holder', '=', holder)])),
        )
        .returning('task')
        .executeTakeFirst();
      return taken !== undefined;
    },

    /** Gives up every lease on a task named `taskPrefix…` held by a holder named `holderPrefix…` (a process closing). */
    async releaseAllOf(taskPrefix: string, holderPrefix: string): Promise<void> {
      await db
        .deleteFrom('task_leases')
        .where('task', 'like', `${taskPrefix}%`)
        .where('holder', 'like', `${holderPrefix}%`)
        .execute();
    },

    /** Forgets expired leases on tasks named `taskPrefix…` (left by processes that died); returns how many. */
    async deleteExpired(taskPrefix: string, now: number): Promise<number> {
      const result = await db
        .deleteFrom('task_leases')
        .where('task', 'like', `${taskPrefix}%`)
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return changedRows(result);
    },

    /** Whether some holder has `task` now (the operations page and tests read it; nothing decides on it). */
    async isHeld(task: string, now: number): Promise<boolean> {
      const row = await db.selectFrom('task_leases').select('task').where('task', '=', task).where('expires_at', '>', now).executeTakeFirst();
      return row !== undefined;
    },

    /** Gives the lease up, if `holder` still has it. */
    async release(task: string, holder: string): Promise<void> {
      await db.deleteFrom('task_leases').where('task', '=', task).where('holder', '=', holder).execute();
    },
  };
}
