// The organisation's accounts, mounted at /api/org (docs/api.md, "Organisation"). Organisation
// admins list accounts, invite by e-mail, resend and revoke invitations, disable and enable
// accounts. Any active signed-in account reads the directory of active accounts' public keys (to
// pick folder members). No route here reads or changes anyone's key data or files, except those
// of the organisation recovery policy (recovery.ts), which is off unless an admin turns it on.
import type { FastifyInstance } from 'fastify';
import { inviteAccount, resendInvitation, revokeInvitation, type InvitationDeps } from '../../accounts/invitations.ts';
import { requireOrgAdmin } from '../../accounts/account-standing.ts';
import { AccountError } from '../../accounts/errors.ts';
import type { AccountListing, Invitation } from '../../db/repositories/index.ts';
import { invitationRefusal } from '../../db/repositories/index.ts';
import { publicOrigin } from '../../download-links/link-url.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { orgRecoveryRoutes } from './recovery.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import {
  accountIdParams,
  directoryResponse,
  invitationBody,
  invitationIdParams,
  invitationListResponse,
  invitationResponse,
  orgAccountListResponse,
  orgAccountResponse,
  type InvitationStatus,
} from '../../../contract/organisation.ts';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

function invitationStatus(invitation: Invitation, now: number): InvitationStatus {
  const refusal = invitationRefusal(invitation, now);
  if (refusal === 'used') return 'accepted';
  if (refusal === 'revoked') return 'revoked';
  if (refusal === 'expired') return 'expired';
  return 'pending';
}

function toInvitationView(invitation: Invitation, now: number) {
  return {
    id: invitation.id,
    email: invitation.email,
    display_name: invitation.displayName,
    org_role: invitation.orgRole,
    status: invitationStatus(invitation, now),
    invited_by: invitation.invitedByName,
    created_at: new Date(invitation.createdAt).toISOString(),
    sent_at: new Date(invitation.sentAt).toISOString(),
    expires_at: new Date(invitation.expiresAt).toISOString(),
    accepted_at: iso(invitation.acceptedAt),
    revoked_at: iso(invitation.revokedAt),
  };
}

function toAccountView(account: AccountListing) {
  return {
    id: account.id,
    username: account.username,
    display_name: account.displayName,
    email: account.email,
    org_role: account.orgRole,
    status: account.disabledAt === null ? ('active' as const) : ('disabled' as const),
    is_2fa_enabled: account.is2faEnabled,
    public_key_spki: account.publicKeySpki,
    invited_at: iso(account.invitedAt),
    joined_at: new Date(account.createdAt).toISOString(),
    disabled_at: iso(account.disabledAt),
    folder_count: account.folderCount,
  };
}

export async function orgRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;
  const deps: InvitationDeps = { repos, mailer: app.mailer, log: app.log, now: app.now };

  /** The signed-in organisation admin, or ORG_ADMIN_REQUIRED. */
  function orgAdmin(request: Parameters<typeof signedIn>[0]) {
    const { user } = signedIn(request);
    requireOrgAdmin(user);
    return user;
  }

  async function accountView(id: number) {
    const account = (await repos.users.listWithFolderCounts()).find((candidate) => candidate.id === id);
    if (!account) throw new AccountError('ACCOUNT_NOT_FOUND');
    return toAccountView(account);
  }

  routes.get('/accounts', { schema: { response: { 200: orgAccountListResponse } } }, async (request) => {
    orgAdmin(request);
    return { accounts: (await repos.users.listWithFolderCounts()).map(toAccountView) };
  });

  routes.post('/accounts/:accountId/disable', { schema: { params: accountIdParams, response: { 200: orgAccountResponse } } }, async (request) => {
    const admin = orgAdmin(request);
    const { accountId } = request.params;
    if (accountId === admin.id) throw new AccountError('CANNOT_DISABLE_SELF');
    const outcome = await repos.users.disable(accountId, app.now());
    if (outcome === 'not-found') throw new AccountError('ACCOUNT_NOT_FOUND');
    if (outcome === 'last-admin') throw new AccountError('LAST_ORG_ADMIN');
    if (outcome === 'disabled') await app.activity.record(admin.id, 'member.disabled', { ip: request.ip, details: { account_id: accountId } });
    return accountView(accountId);
  });

  routes.post('/accounts/:accountId/enable', { schema: { params: accountIdParams, response: { 200: orgAccountResponse } } }, async (request) => {
    const admin = orgAdmin(request);
    const { accountId } = request.params;
    if (!(await repos.users.enable(accountId))) throw new AccountError('ACCOUNT_NOT_FOUND');
    await app.activity.record(admin.id, 'member.enabled', { ip: request.ip, details: { account_id: accountId } });
    return accountView(accountId);
  });

  routes.get('/invitations', { schema: { response: { 200: invitationListResponse } } }, async (request) => {
    orgAdmin(request);
    const now = app.now();
    return { invitations: (await repos.invitations.list()).map((invitation) => toInvitationView(invitation, now)) };
  });

  routes.post('/invitations', { schema: { body: invitationBody, response: { 201: invitationResponse } } }, async (request, reply) => {
    const admin = orgAdmin(request);
    const origin = publicOrigin(request, app.config.publicUrl);
    const invitation = await inviteAccount(deps, admin, request.body, origin);
    await app.activity.record(admin.id, 'member.invited', { ip: request.ip, details: { invitation_id: invitation.id, role: invitation.orgRole } });
    return reply.code(201).send(toInvitationView(invitation, app.now()));
  });

  routes.post('/invitations/:invitationId/resend', { schema: { params: invitationIdParams, response: { 200: invitationResponse } } }, async (request) => {
    const admin = orgAdmin(request);
    const origin = publicOrigin(request, app.config.publicUrl);
    return toInvitationView(await resendInvitation(deps, admin, request.params.invitationId, origin), app.now());
  });

  routes.post('/invitations/:invitationId/revoke', { schema: { params: invitationIdParams, response: { 200: invitationResponse } } }, async (request) => {
    orgAdmin(request);
    return toInvitationView(await revokeInvitation(deps, request.params.invitationId), app.now());
  });

  // The organisation recovery policy (organisation admins; off by default).
  await app.register(orgRecoveryRoutes);

  // For any signed-in account: folder owners pick members from it (team folders).
  routes.get('/directory', { schema: { response: { 200: directoryResponse } } }, async () => {
    const accounts = await repos.users.listActive();
    return {
      accounts: accounts.map((account) => ({
        id: account.id,
        username: account.username,
        display_name: account.displayName,
        public_key_spki: account.publicKeySpki,
      })),
    };
  });
}
