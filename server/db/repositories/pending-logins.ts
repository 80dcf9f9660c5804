// Password steps that await their second factor: a user, the browser that passed the password
// step (hash of its csrftoken cookie) and a deadline.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

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
      const row = await db
        .selectFrom('pending_logins')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('browser_hash', '=', browserHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row !== undefined;
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
      await db.deleteFrom('pending_logins').where('expires_at', '<=', now).execute();
    },
  };
}

export type PendingLoginsRepository = ReturnType<typeof createPendingLoginsRepository>;
