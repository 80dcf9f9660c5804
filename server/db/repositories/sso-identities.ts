// Accounts made and found by single sign-on (docs/api.md "Single sign-on"). A provider's subject
// (issuer + sub) names one account. A first sign-in makes the account and its identity in one
// transaction, claiming the person's open invitation in it when there is one: two callbacks of
// one person racing make one account (the second finds the identity the first made).
import type { Kysely } from 'kysely';
import type { OrgRole } from '../../../contract/organisation.ts';
import type { Database } from '../schema.ts';
import { refusableTransaction } from '../claims.ts';
import { isUniqueViolation } from '../unique-violation.ts';
import { newUserValues, userFromRow, UsernameTakenError, type User } from './users.ts';

export interface NewSsoAccount {
  issuer: string;
  subject: string;
  username: string;
  email: string;
  displayName: string | null;
  orgRole: OrgRole;
  /** argon2id of a random secret nobody keeps: the account has no password. */
  passwordHash: string;
  /** A KDF block like any account's, so the pre-login answers its name like any other. */
  kdfParams: string;
  /** The open invitation this sign-in accepts (its id), claimed in the same transaction. */
  invitationId: number | null;
  now: number;
}

export type SsoAccountOutcome =
  | { kind: 'created'; user: User }
  /** Another request made this subject's account meanwhile. */
  | { kind: 'exists' }
  /** The invitation was accepted, revoked or expired meanwhile. */
  | { kind: 'invitation-gone' };

export function createSsoIdentitiesRepository(db: Kysely<Database>) {
  return {
    /** The account `subject` of `issuer` signs in as, with the identity's id. */
    async findUser(issuer: string, subject: string): Promise<{ identityId: number; user: User } | undefined> {
      const row = await db
        .selectFrom('sso_identities')
        .innerJoin('users', 'users.id', 'sso_identities.user_id')
        .selectAll('users')
        .select('sso_identities.id as identity_id')
        .where('sso_identities.issuer', '=', issuer)
        .where('sso_identities.subject', '=', subject)
        .executeTakeFirst();
      if (!row) return undefined;
      const { identity_id: identityId, ...userRow } = row;
      return { identityId, user: userFromRow(userRow) };
    },

    async recordSignIn(identityId: number, now: number): Promise<void> {
      await db.updateTable('sso_identities').set({ last_sign_in_at: now }).where('id', '=', identityId).execute();
    },

    /** Whether the account signs in by single sign-on. */
    async hasIdentity(userId: number): Promise<boolean> {
      const row = await db.selectFrom('sso_identities').select('id').where('user_id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Makes the account and its identity. A taken username is UsernameTakenError (the caller picks
     * another); the same subject made by a parallel request is `exists`.
     */
    async createAccount(input: NewSsoAccount): Promise<SsoAccountOutcome> {
      try {
        return await refusableTransaction(db, async (trx, refuse: (answer: { kind: 'invitation-gone' }) => never) => {
          let invitedAt: number | null = null;
          if (input.invitationId !== null) {
            const claimed = await trx
              .updateTable('invitations')
              .set({ accepted_at: input.now })
              .where((eb) => eb.and({ id: input.invitationId!, accepted_at: null, revoked_at: null }))
              .where('expires_at', '>', input.now)
              .returning('sent_at')
              .executeTakeFirst();
            if (!claimed) refuse({ kind: 'invitation-gone' });
            invitedAt = Number(claimed.sent_at);
          }
          const userRow = await trx
            .insertInto('users')
            .values(
              newUserValues({
                username: input.username,
                email: input.email,
                passwordHash: input.passwordHash,
                kdfParams: input.kdfParams,
                now: input.now,
                orgRole: input.orgRole,
                displayName: input.displayName,
                invitedAt,
                passwordSignIn: false,
              }),
            )
            .returningAll()
            .executeTakeFirstOrThrow();
          if (input.invitationId !== null) {
            await trx.updateTable('invitations').set({ accepted_user_id: userRow.id }).where('id', '=', input.invitationId).execute();
          }
          await trx
            .insertInto('sso_identities')
            .values({ user_id: userRow.id, issuer: input.issuer, subject: input.subject, created_at: input.now, last_sign_in_at: input.now })
            .execute();
          return { kind: 'created' as const, user: userFromRow(userRow) };
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const existing = await this.findUser(input.issuer, input.subject);
        if (existing) return { kind: 'exists' };
        throw new UsernameTakenError({ cause: error });
      }
    },
  };
}

export type SsoIdentitiesRepository = ReturnType<typeof createSsoIdentitiesRepository>;
