// The organisation recovery policy, for organisation admins (docs/api.md "Organisation recovery"),
// mounted at /api/org/recovery. Off by default. Turned on with a key made in the enabling admin's
// browser; an admin who holds its private key gives copies to other admins; for a member who lost
// every device, an admin answers the member's pending approval request with the member's key,
// opened in the admin's browser. The server stores and relays copies it cannot open.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requireOrgAdmin } from '../../accounts/account-standing.ts';
import { AccountError } from '../../accounts/errors.ts';
import { OrgRecoveryError } from '../../accounts/org-recovery-errors.ts';
import { publicKeyFingerprint } from '../../activity/key-fingerprint.ts';
import { SsoError } from '../../auth/sso/errors.ts';
import type { DeviceApproval } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { p256Spki } from '../auth/devices.ts';
import { publicKeyBody } from '../keys/schemas.ts';
import { accountIdParams } from '../../../contract/organisation.ts';
import { adminCopyBody, enableOrgRecoveryBody, memberApprovalParams, orgRecoveryMember, orgRecoveryStatus, restoreBody } from '../../../contract/org-recovery.ts';

const iso = (time: number) => new Date(time).toISOString();
const rsaSpki = publicKeyBody.shape.public_key_spki;

function toPendingResponse(approval: DeviceApproval) {
  return { id: approval.id, name: approval.requesterName, requester_spki: approval.requesterSpki, created_at: iso(approval.createdAt), expires_at: iso(approval.expiresAt) };
}

export async function orgRecoveryRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  function orgAdmin(request: Parameters<typeof signedIn>[0]) {
    const { user } = signedIn(request);
    requireOrgAdmin(user);
    return user;
  }

  /** The policy's key, or ORG_RECOVERY_OFF. */
  async function currentKey() {
    const key = await repos.orgRecovery.current();
    if (!key) throw new OrgRecoveryError('ORG_RECOVERY_OFF');
    return key;
  }

  async function status(adminId: number) {
    const key = await repos.orgRecovery.current();
    const overview = await repos.orgRecovery.overview(app.now());
    return {
      key: key ? { id: key.keyId, public_key_spki: key.publicKeySpki, enabled_at: iso(key.enabledAt), enabled_by: key.enabledByName } : null,
      admin_copy: key ? ((await repos.orgRecovery.adminCopyOf(adminId)) ?? null) : null,
      admins: key ? overview.admins.map((admin) => ({ id: admin.id, username: admin.username, public_key_spki: admin.publicKeySpki, has_copy: admin.hasCopy })) : [],
      members: overview.members.map((member) => ({ id: member.id, has_copy: key !== undefined && member.hasCopy, pending_approvals: member.pendingApprovals })),
    };
  }

  routes.get('/recovery', { schema: { response: { 200: orgRecoveryStatus } } }, async (request, reply) => {
    const admin = orgAdmin(request);
    reply.header('cache-control', 'no-store');
    return status(admin.id);
  });

  routes.post(
    '/recovery',
    { schema: { body: enableOrgRecoveryBody.extend({ public_key_spki: p256Spki, wrapped_for_spki: rsaSpki }), response: { 201: orgRecoveryStatus } } },
    async (request, reply) => {
      const admin = orgAdmin(request);
      const { public_key_spki: publicKeySpki, admin_copy: adminCopy, wrapped_for_spki: adminSpki } = request.body;
      const outcome = await repos.orgRecovery.enable({ keyId: randomUUID(), publicKeySpki, adminId: admin.id, adminSpki, adminCopy, now: app.now() });
      if (outcome === 'already-on') throw new OrgRecoveryError('ORG_RECOVERY_ON');
      if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
      await app.activity.record(admin.id, 'org_recovery.enabled', { ip: request.ip, details: { fingerprint: publicKeyFingerprint(publicKeySpki) } });
      return reply.code(201).send(await status(admin.id));
    },
  );

  // Claims the key first (deleting its row takes every copy with it): a deposit racing this either
  // committed before and is deleted with the rest, or finds the policy off.
  routes.delete('/recovery', async (request, reply) => {
    const admin = orgAdmin(request);
    const removed = await repos.orgRecovery.disable();
    if (!removed) throw new OrgRecoveryError('ORG_RECOVERY_OFF');
    await app.activity.record(admin.id, 'org_recovery.disabled', { ip: request.ip, details: { member_copies_deleted: removed.memberCopies } });
    return reply.code(204).send();
  });

  routes.put(
    '/recovery/admins/:accountId/copy',
    { schema: { params: accountIdParams, body: adminCopyBody.extend({ wrapped_for_spki: rsaSpki }) } },
    async (request, reply) => {
      const admin = orgAdmin(request);
      const { accountId } = request.params;
      const { key_id: keyId, wrapped_for_spki: wrappedForSpki, copy } = request.body;
      const outcome = await repos.orgRecovery.grantAdminCopy({ targetId: accountId, keyId, wrappedForSpki, copy, grantedBy: admin.id, now: app.now() });
      if (outcome === 'off') throw new OrgRecoveryError('ORG_RECOVERY_OFF');
      if (outcome === 'key-changed') throw new OrgRecoveryError('ORG_KEY_CHANGED');
      if (outcome === 'not-admin') throw new AccountError('ACCOUNT_NOT_FOUND');
      if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
      await app.activity.record(admin.id, 'org_recovery.admin_copy_granted', { ip: request.ip, details: { account_id: accountId } });
      return reply.code(204).send();
    },
  );

  routes.get('/recovery/members/:accountId', { schema: { params: accountIdParams, response: { 200: orgRecoveryMember } } }, async (request, reply) => {
    orgAdmin(request);
    reply.header('cache-control', 'no-store');
    await currentKey();
    const member = await repos.users.findById(request.params.accountId);
    if (!member) throw new AccountError('ACCOUNT_NOT_FOUND');
    const copy = await repos.orgRecovery.memberCopyOf(member.id);
    const approvals = await repos.deviceApprovals.listPending(member.id, app.now());
    return { id: member.id, username: member.username, public_key_spki: member.publicKeySpki, copy: copy?.copy ?? null, approvals: approvals.map(toPendingResponse) };
  });

  // The admin's browser opened the member's copy and sealed the key to the member's request, as a
  // device of the member would: the member's waiting page receives it by its usual poll.
  routes.post(
    '/recovery/members/:accountId/approvals/:approvalId/restore',
    { schema: { params: memberApprovalParams, body: restoreBody.extend({ approver_spki: p256Spki }) } },
    async (request, reply) => {
      const admin = orgAdmin(request);
      const { accountId, approvalId } = request.params;
      const key = await currentKey();
      if (request.body.key_id !== key.keyId) throw new OrgRecoveryError('ORG_KEY_CHANGED');
      const member = await repos.users.findById(accountId);
      if (!member) throw new AccountError('ACCOUNT_NOT_FOUND');
      // Only a member whose key is held for the organisation: an admin never answers in place of
      // a key the organisation does not have (whatever the body holds, it is not that key).
      if (!(await repos.orgRecovery.memberCopyOf(member.id))) throw new OrgRecoveryError('ORG_RECOVERY_COPY_NOT_FOUND');
      const now = app.now();
      const answered = await repos.deviceApprovals.approve(member.id, approvalId, { approverSpki: request.body.approver_spki, wrappedPrivateKey: request.body.copy }, now);
      if (!answered) throw new SsoError('APPROVAL_NOT_FOUND');
      await app.activity.record(member.id, 'org_recovery.restored', { ip: request.ip, details: { by_account_id: admin.id, by_username: admin.username, approval_id: approvalId } });
      await app.activity.record(admin.id, 'member.access_restored', { ip: request.ip, details: { account_id: member.id, approval_id: approvalId } });
      return reply.code(204).send();
    },
  );
}
