// A member's side of the organisation recovery policy (docs/api.md "Organisation recovery"): the
// browser asks whether the policy is on and whether its copy for the current organisation key and
// key pair is stored, and if not stores one. A PUT is idempotent (the same account and key again
// replaces the copy) and refused while the policy is off or for another organisation key.
import type { FastifyInstance } from 'fastify';
import { OrgRecoveryError } from '../../accounts/org-recovery-errors.ts';
import { publicKeyFingerprint } from '../../activity/key-fingerprint.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { publicKeyBody } from '../keys/schemas.ts';
import { memberCopyBody, memberRecoveryState } from '../../../contract/org-recovery.ts';

export async function orgRecoveryCopyRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.get('/org-recovery-copy', { schema: { response: { 200: memberRecoveryState } } }, async (request, reply) => {
    const { user } = signedIn(request);
    reply.header('cache-control', 'no-store');
    const key = await repos.orgRecovery.current();
    if (!key) return { key: null, stored: false };
    const copy = await repos.orgRecovery.memberCopyOf(user.id);
    return { key: { id: key.keyId, public_key_spki: key.publicKeySpki }, stored: copy?.keyId === key.keyId };
  });

  routes.put('/org-recovery-copy', { schema: { body: memberCopyBody.extend({ wrapped_for_spki: publicKeyBody.shape.public_key_spki }) } }, async (request, reply) => {
    const { user } = signedIn(request);
    const { key_id: keyId, wrapped_for_spki: wrappedForSpki, copy } = request.body;
    const outcome = await repos.orgRecovery.depositMemberCopy({ userId: user.id, keyId, wrappedForSpki, copy, now: app.now() });
    if (outcome === 'off') throw new OrgRecoveryError('ORG_RECOVERY_OFF');
    if (outcome === 'key-changed') throw new OrgRecoveryError('ORG_KEY_CHANGED');
    if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
    const key = await repos.orgRecovery.current();
    await app.activity.record(user.id, 'org_recovery.copy_stored', { ip: request.ip, details: { org_key_fingerprint: key ? publicKeyFingerprint(key.publicKeySpki) : null } });
    return reply.code(204).send();
  });
}
