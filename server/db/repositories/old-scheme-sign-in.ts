// Whether the password sign-in of accounts made before zero-knowledge sign-in is still open on this
// server (server_flags, migration 0018). It closes once no account of the old scheme is left and
// never opens again by itself: a database edit that makes an account look old (kdf_params NULL)
// does not reopen it.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

const CLOSED = 'old_scheme_sign_in_closed';

export function createOldSchemeSignInRepository(db: Kysely<Database>) {
  async function isClosed(): Promise<boolean> {
    return (await db.selectFrom('server_flags').select('name').where('name', '=', CLOSED).executeTakeFirst()) !== undefined;
  }

  return {
    isClosed,

    /** Closes it when it is open and no account of the old scheme is left; answers whether it is closed now. */
    async closeWhenNoneLeft(now: number): Promise<boolean> {
      if (await isClosed()) return true;
      const oldScheme = await db.selectFrom('users').select('id').where('kdf_params', 'is', null).limit(1).executeTakeFirst();
      if (oldScheme) return false;
      await db.insertInto('server_flags').values({ name: CLOSED, set_at: now }).onConflict((c) => c.column('name').doNothing()).execute();
      return true;
    },

    /**
     * Opens it again: only for a database into which accounts of the old scheme were brought after
     * it closed (the test fixtures build such accounts so); no route calls it.
     */
    async reopen(): Promise<void> {
      await db.deleteFrom('server_flags').where('name', '=', CLOSED).execute();
    },
  };
}

export type OldSchemeSignInRepository = ReturnType<typeof createOldSchemeSignInRepository>;
