// E-mail verification codes of upload links, bound to a folder and an address. Only an HMAC of
// each code is stored (see server/upload/verification-code.ts). A code is pending until it is
// verified (single use), runs out of tries, or expires.
import type { Kysely } from 'kysely';
import type { Database, VerificationCodeRow } from '../schema.ts';
import { changedRows, claimedOne } from '../claims.ts';
import { rowMapper } from '../row-mapping.ts';

export interface VerificationCode {
  id: number;
  folderId: number;
  email: string;
  codeHash: string;
  salt: string;
  attempts: number;
  expiresAt: number;
  verifiedAt: number | null;
}

export interface NewVerificationCode {
  folderId: number;
  email: string;
  codeHash: string;
  salt: string;
  expiresAt: number;
  now: number;
}

const toCode = rowMapper<VerificationCodeRow, VerificationCode>()({ numbers: ['expires_at', 'verified_at'], omit: ['created_at'] });

export function createVerificationCodesRepository(db: Kysely<Database>) {
  return {
    /** Stores a new code for the folder and address; earlier pending codes for them stop working. */
    async replacePending(input: NewVerificationCode): Promise<VerificationCode> {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('verification_codes')
          .where((eb) => eb.and({ folder_id: input.folderId, email: input.email, verified_at: null }))
          .execute();
        const row = await trx
          .insertInto('verification_codes')
          .values({
            folder_id: input.folderId,
            email: input.email,
            code_hash: input.codeHash,
            salt: input.salt,
            attempts: 0,
            expires_at: input.expiresAt,
            verified_at: null,
            created_at: input.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toCode(row);
      });
    },

    /**
     * Uses up one try of the newest code for the folder and address that is unverified, unexpired
     * and has tries left, and returns it; undefined when there is none. One atomic update, so
     * parallel guesses never compare against a code more than `maxAttempts` times.
     */
    async reserveAttempt(folderId: number, email: string, now: number, maxAttempts: number) {
      const newestPending = db
        .selectFrom('verification_codes')
        .select('id')
        .where((eb) => eb.and({ folder_id: folderId, email, verified_at: null }))
        .where('expires_at', '>', now)
        .orderBy('id', 'desc')
        .limit(1);
      const row = await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', newestPending)
        .where('attempts', '<', maxAttempts)
        .returningAll()
        .executeTakeFirst();
      return row && toCode(row);
    },

    /** Codes for the folder and address verified at or after `since`, newest first. */
    async listVerifiedSince(folderId: number, email: string, since: number): Promise<VerificationCode[]> {
      const rows = await db
        .selectFrom('verification_codes')
        .selectAll()
        .where((eb) => eb.and({ folder_id: folderId, email }))
        .where('verified_at', '>=', since)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toCode);
    },

    /** Marks a pending code verified; false when it was already used (two requests raced). */
    async markVerified(id: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('verification_codes')
        .set({ verified_at: now })
        .where('id', '=', id)
        .where('verified_at', 'is', null)
        .executeTakeFirst();
      return claimedOne(result);
    },

    /** Removes codes that can no longer be used: pending ones past expiry, verified ones verified before `verifiedBefore`. */
    async deleteStale(now: number, verifiedBefore: number): Promise<number> {
      const result = await db
        .deleteFrom('verification_codes')
        .where((eb) =>
          eb.or([
            eb.and([eb('verified_at', 'is', null), eb('expires_at', '<=', now)]),
            eb('verified_at', '<', verifiedBefore),
          ]),
        )
        .executeTakeFirst();
      return changedRows(result);
    },
  };
}

export type VerificationCodesRepository = ReturnType<typeof createVerificationCodesRepository>;
