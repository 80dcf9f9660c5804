// Invitations by e-mail (server/accounts/invitations.ts). The link's token is kept only as its
// SHA-256. Accepting claims the row and creates the account in one transaction, so however many
// requests present one token at once, exactly one account comes of it.
import { sql, type Kysely } from 'kysely';
import type { OrgRole } from '../../../contract/organisation.ts';
import type { Database, InvitationRow } from '../schema.ts';
import { isUniqueViolation } from '../unique-violation.ts';
import { newUserValues, userFromRow, UsernameTakenError, type NewUser, type User } from './users.ts';

export interface Invitation {
  id: number;
  email: string;
  displayName: string | null;
  orgRole: OrgRole;
  invitedBy: number | null;
  /** The inviting admin's username (null once that account is gone). */
  invitedByName: string | null;
  createdAt: number;
  sentAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  acceptedUserId: number | null;
  revokedAt: number | null;
}

export interface NewInvitation {
  email: string;
  displayName: string | null;
  orgRole: OrgRole;
  tokenHash: string;
  invitedBy: number;
  now: number;
  expiresAt: number;
}

/** Why a token did not open or accept: no such token, or the invitation's state. */
export type InvitationRefusal = 'not-found' | 'used' | 'revoked' | 'expired';

export type AcceptOutcome = { kind: 'accepted'; user: User; invitation: Invitation } | { kind: 'refused'; reason: InvitationRefusal };

/** Rolls back an acceptance whose claim failed (inside accept only). */
class ClaimRefused extends Error {
  readonly code = 'CLAIM_REFUSED';
}

type InvitationWithInviter = InvitationRow & { inviter_name: string | null };

function toInvitation(row: InvitationWithInviter): Invitation {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    orgRole: row.org_role === 'admin' ? 'admin' : 'member',
    invitedBy: row.invited_by,
    invitedByName: row.inviter_name,
    createdAt: Number(row.created_at),
    sentAt: Number(row.sent_at),
    expiresAt: Number(row.expires_at),
    acceptedAt: row.accepted_at === null ? null : Number(row.accepted_at),
    acceptedUserId: row.accepted_user_id,
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** What state refuses this invitation's token at `now`, if any. */
export function invitationRefusal(invitation: Pick<Invitation, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now: number): InvitationRefusal | null {
  if (invitation.acceptedAt !== null) return 'used';
  if (invitation.revokedAt !== null) return 'revoked';
  if (invitation.expiresAt <= now) return 'expired';
  return null;
}

export function createInvitationsRepository(db: Kysely<Database>) {
  const withInviter = () =>
    db
      .selectFrom('invitations')
      .leftJoin('users', 'users.id', 'invitations.invited_by')
      .selectAll('invitations')
      .select('users.username as inviter_name');

  return {
    async create(input: NewInvitation): Promise<Invitation> {
      const row = await db
        .insertInto('invitations')
        .values({
          email: input.email,
          display_name: input.displayName,
          org_role: input.orgRole,
          token_hash: input.tokenHash,
          invited_by: input.invitedBy,
          created_at: input.now,
          sent_at: input.now,
          expires_at: input.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = await withInviter().where('invitations.id', '=', row.id).executeTakeFirstOrThrow();
      return toInvitation(created);
    },

    /** Newest first. */
    async list(): Promise<Invitation[]> {
      const rows = await withInviter().orderBy('invitations.id', 'desc').execute();
      return rows.map(toInvitation);
    },

    async findById(id: number): Promise<Invitation | undefined> {
      const row = await withInviter().where('invitations.id', '=', id).executeTakeFirst();
      return row && toInvitation(row);
    },

    async findByTokenHash(tokenHash: string): Promise<Invitation | undefined> {
      const row = await withInviter().where('invitations.token_hash', '=', tokenHash).executeTakeFirst();
      return row && toInvitation(row);
    },

    /** An invitation to this address (any letter case) that is neither accepted nor revoked nor expired. */
    async findOpenForEmail(email: string, now: number): Promise<Invitation | undefined> {
      const row = await withInviter()
        .where(sql<string>`lower(invitations.email)`, '=', email.toLowerCase())
        .where('invitations.accepted_at', 'is', null)
        .where('invitations.revoked_at', 'is', null)
        .where('invitations.expires_at', '>', now)
        .executeTakeFirst();
      return row && toInvitation(row);
    },

    /**
     * A new token and expiry for an invitation not yet accepted nor revoked (the old mail's link
     * stops working); false when it was accepted or revoked meanwhile.
     */
    async renew(id: number, tokenHash: string, now: number, expiresAt: number): Promise<boolean> {
      const changed = await db
        .updateTable('invitations')
        .set({ token_hash: tokenHash, sent_at: now, expires_at: expiresAt })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(changed.numUpdatedRows) === 1;
    },

    /** Withdraws an invitation not yet accepted; false when it was accepted or revoked already. */
    async revoke(id: number, now: number): Promise<boolean> {
      const changed = await db
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(changed.numUpdatedRows) === 1;
    },

    /**
     * Claims the open invitation of `tokenHash` and creates its account, in one transaction. The
     * claim is a conditional update (still open at `now`): of concurrent acceptances, the first
     * to write wins and the others find nothing to claim. A taken username rolls the claim back
     * (UsernameTakenError), so the invitation stays open for another name.
     */
    async accept(tokenHash: string, account: Omit<NewUser, 'orgRole' | 'displayName' | 'invitedAt' | 'email'>): Promise<AcceptOutcome> {
      const now = account.now;
      try {
        return await db.transaction().execute(async (trx) => {
          const claimed = await trx
            .updateTable('invitations')
            .set({ accepted_at: now })
            .where('token_hash', '=', tokenHash)
            .where('accepted_at', 'is', null)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now)
            .returningAll()
            .executeTakeFirst();
          if (!claimed) throw new ClaimRefused();
          const userRow = await trx
            .insertInto('users')
            .values(
              newUserValues({
                ...account,
                email: claimed.email,
                orgRole: claimed.org_role === 'admin' ? 'admin' : 'member',
                displayName: claimed.display_name,
                invitedAt: Number(claimed.sent_at),
              }),
            )
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx.updateTable('invitations').set({ accepted_user_id: userRow.id }).where('id', '=', claimed.id).execute();
          const invitation = toInvitation({ ...claimed, accepted_user_id: userRow.id, inviter_name: null });
          return { kind: 'accepted' as const, user: userFromRow(userRow), invitation };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new UsernameTakenError();
        if (!(error instanceof ClaimRefused)) throw error;
        const invitation = await this.findByTokenHash(tokenHash);
        return { kind: 'refused', reason: invitation ? (invitationRefusal(invitation, now) ?? 'used') : 'not-found' };
      }
    },
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
