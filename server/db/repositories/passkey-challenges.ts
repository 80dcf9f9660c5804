// WebAuthn challenges: stored by hash, claimed once, expiring (docs/api.md "Passkeys").
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { claimedOne } from '../claims.ts';
import { deleteExpired } from '../expiry.ts';
import { rowValues } from '../row-mapping.ts';

export type PasskeyChallengePurpose = 'register' | 'sign_in' | 'reauth';

export interface NewPasskeyChallenge {
  challengeHash: string;
  purpose: PasskeyChallengePurpose;
  userId: number | null;
  browserHash: string | null;
  expiresAt: number;
}

/** What claiming found: claimed now; claimed before; or none for this purpose, owner and time. */
export type ChallengeClaim = 'claimed' | 'used' | 'invalid';

export function createPasskeyChallengesRepository(db: Kysely<Database>) {
  return {
    async save(challenge: NewPasskeyChallenge): Promise<void> {
      await db
        .insertInto('passkey_challenges')
        .values({ ...rowValues(challenge, ['challengeHash', 'purpose', 'userId', 'browserHash', 'expiresAt']), used_at: null })
        .execute();
    },

    /**
     * Marks the challenge used if it is unused, unexpired and was issued for this purpose and owner
     * (the user, or for a sign-in the browser). One statement: of parallel claims, one wins.
     */
    async claim(
      challengeHash: string,
      purpose: PasskeyChallengePurpose,
      owner: { userId: number } | { browserHash: string },
      now: number,
    ): Promise<ChallengeClaim> {
      const issued = { challenge_hash: challengeHash, purpose };
      const issuedTo = 'userId' in owner ? { user_id: owner.userId } : { browser_hash: owner.browserHash };
      const result = await db
        .updateTable('passkey_challenges')
        .set({ used_at: now })
        .where((eb) => eb.and({ ...issued, ...issuedTo, used_at: null }))
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (claimedOne(result)) return 'claimed';
      const row = await db.selectFrom('passkey_challenges').select('used_at').where((eb) => eb.and(issued)).executeTakeFirst();
      return row && row.used_at !== null ? 'used' : 'invalid';
    },

    async deleteExpired(now: number): Promise<void> {
      await deleteExpired(db, 'passkey_challenges', now, 'expires_at');
    },
  };
}

export type PasskeyChallengesRepository = ReturnType<typeof createPasskeyChallengesRepository>;
