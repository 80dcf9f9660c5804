// Invitations by e-mail (server/accounts/invitations.ts). The link's token is kept only as its
// SHA-256. Accepting claims the row and creates the account in one transaction, so however many
// requests present one token at once, exactly one account comes of it.
import { sql, type Kysely, type Updateable } from 'kysely';
import type { OrgRole } from '../../../contract/organisation.ts';
import type { Database, InvitationRow, InvitationsTable } from '../schema.ts';
import { claimedOne, refusableTransaction } from '../claims.ts';
import { rowMapper, rowValues } from '../row-mapping.ts';
import { isUniqueViolation } from '../unique-violation.ts';
import { newUserValues, orgRoleOf, userFromRow, UsernameTakenError, type NewUser, type User } from './users.ts';

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

type InvitationWithInviter = InvitationRow & { inviter_name: string | null };

const toInvitationOnly = rowMapper<InvitationRow, Omit<Invitation, 'invitedByName'>>()({
  numbers: ['created_at', 'sent_at', 'expires_at', 'accepted_at', 'revoked_at'],
  decode: { org_role: orgRoleOf },
  omit: ['token_hash'],
});

function toInvitation({ inviter_name, ...row }: InvitationWithInviter): Invitation {
  return { ...toInvitationOnly(row), invitedByName: inviter_name };
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

  /** Changes an invitation that is neither accepted nor revoked; false when it is one of those by now. */
  const changeOpen = async (id: number, changes: Updateable<InvitationsTable>): Promise<boolean> =>
    claimedOne(
      await db
        .updateTable('invitations')
        .set(changes)
        .where((eb) => eb.and({ id, accepted_at: null, revoked_at: null }))
        .executeTakeFirst(),
    );

  return {
    async create(input: NewInvitation): Promise<Invitation> {
      const row = await db
        .insertInto('invitations')
        .values({
          ...rowValues(input, ['email', 'displayName', 'orgRole', 'tokenHash', 'invitedBy', 'expiresAt']),
          created_at: input.now,
          sent_at: input.now,
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
      return changeOpen(id, { token_hash: tokenHash, sent_at: now, expires_at: expiresAt });
    },

    /** Withdraws an invitation not yet accepted; false when it was accepted or revoked already. */
    async revoke(id: number, now: number): Promise<boolean> {
      return changeOpen(id, { revoked_at: now });
    },

    /**
     * Claims the open invitation of `tokenHash` and creates its account, in one transaction. The
     * claim is a conditional update (still open at `now`): of concurrent acceptances, the first
     * to write wins and the others find nothing to claim. A taken username rolls the claim back
     * (UsernameTakenError), so the invitation stays open for another name.
     */
    async accept(tokenHash: string, account: Omit<NewUser, 'orgRole' | 'displayName' | 'invitedAt' | 'email'>): Promise<AcceptOutcome> {
      const now = account.now;
      let outcome: AcceptOutcome | 'unclaimed';
      try {
        outcome = await refusableTransaction(db, async (trx, refuse: (answer: 'unclaimed') => never) => {
          const row = await trx
            .updateTable('invitations')
            .set({ accepted_at: now })
            .where((eb) => eb.and({ token_hash: tokenHash, accepted_at: null, revoked_at: null }))
            .where('expires_at', '>', now)
            .returningAll()
            .executeTakeFirst();
          if (!row) refuse('unclaimed');
          const claimed = toInvitation({ ...row, inviter_name: null });
          const userRow = await trx
            .insertInto('users')
            .values(newUserValues({ ...account, email: claimed.email, orgRole: claimed.orgRole, displayName: claimed.displayName, invitedAt: claimed.sentAt }))
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx.updateTable('invitations').set({ accepted_user_id: userRow.id }).where('id', '=', claimed.id).execute();
          return { kind: 'accepted' as const, user: userFromRow(userRow), invitation: { ...claimed, acceptedUserId: userRow.id } };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new UsernameTakenError();
        throw error;
      }
      if (outcome !== 'unclaimed') return outcome;
      const invitation = await this.findByTokenHash(tokenHash);
      return { kind: 'refused', reason: invitation ? (invitationRefusal(invitation, now) ?? 'used') : 'not-found' };
    },
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
