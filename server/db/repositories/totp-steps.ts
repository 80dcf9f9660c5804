// Accepted TOTP time steps per user, so that each code is accepted at most once.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { claimedOne } from '../claims.ts';
import { deleteBefore } from '../expiry.ts';

export function createTotpStepsRepository(db: Kysely<Database>) {
  return {
    /**
     * Records that the user's code for `step` was accepted. Returns false when it already was
     * (a replay). The primary key makes this race-free across processes.
     */
    async markUsed(userId: number, step: number, now: number): Promise<boolean> {
      const result = await db
        .insertInto('totp_used_steps')
        .values({ user_id: userId, step, used_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'step']).doNothing())
        .executeTakeFirst();
      return claimedOne(result);
    },

    async deleteUsedBefore(cutoff: number): Promise<void> {
      await deleteBefore(db, 'totp_used_steps', 'used_at', cutoff);
    },

    async deleteForUser(userId: number): Promise<void> {
      await db.deleteFrom('totp_used_steps').where('user_id', '=', userId).execute();
    },
  };
}

export type TotpStepsRepository = ReturnType<typeof createTotpStepsRepository>;
