// Password steps that await their second factor: a user, the browser that passed the password
// step (hash of its csrftoken cookie) and a deadline.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { deleteExpired, hasLiveRow } from '../expiry.ts';

export function createPendingLoginsRepository(db: Kysely<Database>) {
  return {
    async save(userId: number, browserHash: string, expiresAt: number): Promise<void> {
      await db
        .insertInto('pending_logins')
        .values({ user_id: userId, browser_hash: browserHash, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['user_id', 'browser_hash']).doUpdateSet({ expires_at: expiresAt }))
        .execute();
    },

    async isPending(userId: number, browserHash: string, now: number): Promise<boolean> {
      return hasLiveRow(db, 'pending_logins', { user_id: userId, browser_hash: browserHash }, now);
    },

    async remove(userId: number, browserHash: string): Promise<void> {
      await db
        .deleteFrom('pending_logins')
        .where('user_id', '=', userId)
        .where('browser_hash', '=', browserHash)
        .execute();
    },

    async deleteForUser(userId: number): Promise<void> {
      await db.deleteFrom('pending_logins').where('user_id', '=', userId).execute();
    },

    async deleteExpired(now: number): Promise<void> {
      await deleteExpired(db, 'pending_logins', now, 'expires_at');
    },
  };
}

export type PendingLoginsRepository = ReturnType<typeof createPendingLoginsRepository>;
