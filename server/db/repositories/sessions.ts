// Server-side sessions, looked up by the SHA-256 of the cookie token.
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../schema.ts';
import { deleteExpired } from '../expiry.ts';
import { rowMapper } from '../row-mapping.ts';

export interface Session {
  id: number;
  userId: number;
  expiresAt: number;
  /** When the session last proved the password or a passkey again; null: not since sign-in. */
  reauthenticatedAt: number | null;
  /** Started by single sign-on: sign-out also ends the provider's session. */
  sso: boolean;
}

const toSession = rowMapper<SessionRow, Session>()({ numbers: ['reauthenticated_at'], flags: ['sso'], omit: ['token_hash', 'created_at'] });

export function createSessionsRepository(db: Kysely<Database>) {
  return {
    async create(input: {
      tokenHash: string;
      userId: number;
      expiresAt: number;
      now: number;
      sso?: boolean;
      /** A sign-in that proved who this is just now (single sign-on): re-authenticated at its start. */
      reauthenticatedAt?: number;
    }): Promise<Session> {
      const row = await db
        .insertInto('sessions')
        .values({
          token_hash: input.tokenHash,
          user_id: input.userId,
          expires_at: input.expiresAt,
          created_at: input.now,
          sso: input.sso ? 1 : 0,
          reauthenticated_at: input.reauthenticatedAt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSession(row);
    },

    async findByTokenHash(tokenHash: string): Promise<Session | undefined> {
      const row = await db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toSession(row);
    },

    async markReauthenticated(id: number, now: number): Promise<void> {
      await db.updateTable('sessions').set({ reauthenticated_at: now }).where('id', '=', id).execute();
    },

    async deleteById(id: number): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteByTokenHash(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    /** Ends every session of the user, except `keepSessionId` when given. */
    async deleteForUser(userId: number, keepSessionId?: number): Promise<void> {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
      await query.execute();
    },

    async deleteExpired(now: number): Promise<void> {
      await deleteExpired(db, 'sessions', now, 'expires_at');
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
