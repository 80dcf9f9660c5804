// Invitations by e-mail (docs/api.md, "Organisation"). An organisation admin invites an address;
// the server mails a link carrying a 256-bit token and keeps only the token's SHA-256. The
// invitee's browser opens it, chooses a username and password and derives the login secret itself
// (exactly as for a password change: a fresh scheme-3 block bound to the name), so the server never
// sees the password. Accepting claims the invitation and creates the account in one transaction.
import type { FastifyBaseLogger } from 'fastify';
import type { OrgRole } from '../../contract/organisation.ts';
import { hashAuthSecret, isNewAccountKdfParams } from '../auth/login-secret.ts';
import { newToken, sha256Hex } from '../auth/tokens.ts';
import { invitationRefusal, UsernameTakenError, type Invitation, type InvitationRefusal, type Repositories, type User } from '../db/repositories/index.ts';
import { ApiError } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { AccountError } from './errors.ts';
import { invitationMessage, invitationUrl } from './invitation-message.ts';
import { storedLanguage } from '../i18n/intl.ts';

/** How long an invitation's link works after it was (re)sent. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** A send that takes longer counts as failed: the invitation stays, to be resent. */
export const INVITATION_SEND_DEADLINE_MS = 30_000;

export interface InvitationDeps {
  repos: Repositories;
  mailer: Mailer;
  log: FastifyBaseLogger;
  now: () => number;
  sendDeadlineMs?: number;
}

const REFUSAL_CODES: Record<InvitationRefusal, 'INVITATION_NOT_FOUND' | 'INVITATION_USED' | 'INVITATION_REVOKED' | 'INVITATION_EXPIRED'> = {
  'not-found': 'INVITATION_NOT_FOUND',
  used: 'INVITATION_USED',
  revoked: 'INVITATION_REVOKED',
  expired: 'INVITATION_EXPIRED',
};

function refused(reason: InvitationRefusal): AccountError {
  return new AccountError(REFUSAL_CODES[reason]);
}

async function sendWithin(deps: InvitationDeps, send: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the SMTP server did not accept the invitation in time')), deps.sendDeadlineMs ?? INVITATION_SEND_DEADLINE_MS);
  });
  try {
    await Promise.race([send, deadline]);
  } catch (error) {
    deps.log.warn({ err: error }, 'invitation mail not sent');
    throw new AccountError('INVITATION_MAIL_FAILED');
  } finally {
    clearTimeout(timer);
  }
}

async function mailInvitation(deps: InvitationDeps, invitation: Invitation, token: string, inviter: User, origin: string): Promise<void> {
  const message = invitationMessage({
    to: invitation.email,
    inviter: inviter.displayName ?? inviter.username,
    displayName: invitation.displayName,
    url: invitationUrl(origin, token),
    expiresAt: invitation.expiresAt,
    language: storedLanguage(inviter.language),
  });
  await sendWithin(deps, deps.mailer.send(message));
  deps.log.info({ invitationId: invitation.id }, 'invitation mail sent');
}

export async function inviteAccount(deps: InvitationDeps, inviter: User, body: { email: string; display_name: string | null; org_role: OrgRole }, origin: string): Promise<Invitation> {
  const now = deps.now();
  if (await deps.repos.invitations.findOpenForEmail(body.email, now)) throw new AccountError('INVITATION_PENDING');
  const token = newToken();
  const invitation = await deps.repos.invitations.create({
    email: body.email,
    displayName: body.display_name,
    orgRole: body.org_role,
    tokenHash: sha256Hex(token),
    invitedBy: inviter.id,
    now,
    expiresAt: now + INVITATION_TTL_MS,
  });
  await mailInvitation(deps, invitation, token, inviter, origin);
  return invitation;
}

/** A new token and expiry, mailed again; the previous link stops working. */
export async function resendInvitation(deps: InvitationDeps, inviter: User, id: number, origin: string): Promise<Invitation> {
  const existing = await deps.repos.invitations.findById(id);
  if (!existing) throw new AccountError('INVITATION_NOT_FOUND');
  const now = deps.now();
  const token = newToken();
  if (!(await deps.repos.invitations.renew(id, sha256Hex(token), now, now + INVITATION_TTL_MS))) {
    const current = await deps.repos.invitations.findById(id);
    throw refused(current ? (invitationRefusal(current, now) ?? 'used') : 'not-found');
  }
  const renewed = await deps.repos.invitations.findById(id);
  if (!renewed) throw new AccountError('INVITATION_NOT_FOUND');
  await mailInvitation(deps, renewed, token, inviter, origin);
  return renewed;
}

export async function revokeInvitation(deps: InvitationDeps, id: number): Promise<Invitation> {
  const now = deps.now();
  if (!(await deps.repos.invitations.revoke(id, now))) {
    const current = await deps.repos.invitations.findById(id);
    throw refused(current ? (invitationRefusal(current, now) ?? 'used') : 'not-found');
  }
  const revoked = await deps.repos.invitations.findById(id);
  if (!revoked) throw new AccountError('INVITATION_NOT_FOUND');
  return revoked;
}

/** The invitation a token names, while it can still be accepted. */
export async function openInvitation(deps: Pick<InvitationDeps, 'repos' | 'now'>, token: string): Promise<Invitation> {
  const invitation = await deps.repos.invitations.findByTokenHash(sha256Hex(token));
  if (!invitation) throw new AccountError('INVITATION_NOT_FOUND');
  const refusal = invitationRefusal(invitation, deps.now());
  if (refusal) throw refused(refusal);
  return invitation;
}

/**
 * Creates the invitee's account from the login secret its browser derived. The block must be
 * scheme 3 at the default cost and bound to the chosen name, as every account's is.
 */
export async function acceptInvitation(
  deps: Pick<InvitationDeps, 'repos' | 'now'>,
  input: { token: string; username: string; kdfParams: string; authSecret: string },
): Promise<{ user: User; invitation: Invitation }> {
  // The token is checked first, so a stranger learns nothing about names or parameters.
  await openInvitation(deps, input.token);
  if (!isNewAccountKdfParams(input.kdfParams, input.username)) throw new ApiError('KDF_PARAMS_NOT_BOUND');
  const passwordHash = await hashAuthSecret(input.authSecret);
  try {
    const outcome = await deps.repos.invitations.accept(sha256Hex(input.token), {
      username: input.username,
      passwordHash,
      kdfParams: input.kdfParams,
      now: deps.now(),
    });
    if (outcome.kind === 'refused') throw refused(outcome.reason);
    return { user: outcome.user, invitation: outcome.invitation };
  } catch (error) {
    if (error instanceof UsernameTakenError) throw new ApiError('USERNAME_TAKEN');
    throw error;
  }
}
