// The private key of an account without a password (docs/api.md "Single sign-on"): its first key
// pair, trusted devices, the recovery key's copy and approvals of a new device by an unlocked one.
// The server keeps copies it cannot open and answers each only to its account, and only while the
// key pair it wraps is the account's.
import { createPublicKey, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { publicKeyFingerprint } from '../../activity/key-fingerprint.ts';
import { SsoError } from '../../auth/sso/errors.ts';
import type { DeviceApproval, TrustedDevice } from '../../db/repositories/index.ts';
import { ApiError } from '../../errors.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { userResponse } from '../../../contract/auth.ts';
import {
  APPROVAL_TTL_MS,
  MAX_PENDING_APPROVALS,
  MAX_TRUSTED_DEVICES,
  approvalCreatedResponse,
  approvalIdParams,
  approvalRequestBody,
  approvalStatusResponse,
  approveBody,
  deviceIdParams,
  pendingApprovalsResponse,
  recoveryCopyBody,
  ssoKeyPairBody,
  trustDeviceBody,
  trustedDevicesResponse,
  wrappedCopyResponse,
} from '../../../contract/sso.ts';
import { publicKeyBody } from '../keys/schemas.ts';
import { toUserResponse } from './user-response.ts';
import { z } from 'zod';

const iso = (time: number) => new Date(time).toISOString();

/** An account public key (RSA-2048 SPKI), parsed to its canonical form as PUT /public-key does. */
const rsaSpki = publicKeyBody.shape.public_key_spki;

/** An ECDH P-256 public key in SPKI form (an approval's key, the organisation key); anything else is refused. */
export const p256Spki = z.string().refine((value) => {
  try {
    const key = createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}, 'Public key must be an ECDH P-256 key in SPKI form');

function toDeviceResponse(device: TrustedDevice) {
  return { id: device.id, name: device.name, created_at: iso(device.createdAt), last_used_at: device.lastUsedAt === null ? null : iso(device.lastUsedAt) };
}

function toPendingResponse(approval: DeviceApproval) {
  return { id: approval.id, name: approval.requesterName, requester_spki: approval.requesterSpki, created_at: iso(approval.createdAt), expires_at: iso(approval.expiresAt) };
}

export async function deviceRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  routes.post('/sso/key-pair', { schema: { body: ssoKeyPairBody.extend({ public_key_spki: rsaSpki }), response: { 200: userResponse } } }, async (request) => {
    const { user } = signedIn(request);
    const { recovery_copy: recoveryCopy, device, public_key_spki: publicKeySpki } = request.body;
    const outcome = await repos.trustedDevices.createKeyPair(user.id, { publicKeySpki, recoveryCopy, device }, app.now());
    if (outcome === 'has-key-pair') throw new SsoError('KEY_PAIR_EXISTS');
    await app.activity.record(user.id, 'public_key.stored', { ip: request.ip, details: { fingerprint: publicKeyFingerprint(publicKeySpki) } });
    const updated = await repos.users.findById(user.id);
    if (!updated) throw new ApiError('SESSION_EXPIRED');
    return toUserResponse(updated);
  });

  routes.get('/devices', { schema: { response: { 200: trustedDevicesResponse } } }, async (request) => {
    const devices = await repos.trustedDevices.listForUser(signedIn(request).user.id);
    return { devices: devices.map(toDeviceResponse) };
  });

  // PUT by the browser's own id: a retried request writes the same row.
  routes.put('/devices/:deviceId', { schema: { params: deviceIdParams, body: trustDeviceBody.extend({ wrapped_for_spki: rsaSpki }) } }, async (request, reply) => {
    const { user } = signedIn(request);
    const { name, copy, wrapped_for_spki: wrappedForSpki } = request.body;
    const outcome = await repos.trustedDevices.add({ id: request.params.deviceId, userId: user.id, name, wrappedPrivateKey: copy, wrappedForSpki, now: app.now() }, MAX_TRUSTED_DEVICES);
    if (outcome === 'limit-reached') throw new SsoError('DEVICE_LIMIT_REACHED');
    if (outcome === 'key-pair-changed') throw new ApiError('KEY_PAIR_CHANGED');
    // Another account's device id: answered like a missing device, telling nothing about it.
    if (outcome === 'id-taken') throw new SsoError('DEVICE_NOT_FOUND');
    return reply.code(204).send();
  });

  routes.get('/devices/:deviceId/copy', { schema: { params: deviceIdParams, response: { 200: wrappedCopyResponse } } }, async (request, reply) => {
    const { user } = signedIn(request);
    reply.header('cache-control', 'no-store');
    const found = await repos.trustedDevices.useCopy(user.id, request.params.deviceId, app.now());
    if (!found) throw new SsoError('DEVICE_NOT_FOUND');
    return { copy: found.copy };
  });

  routes.delete('/devices/:deviceId', { schema: { params: deviceIdParams } }, async (request, reply) => {
    const { user } = signedIn(request);
    if (!(await repos.trustedDevices.remove(user.id, request.params.deviceId))) throw new SsoError('DEVICE_NOT_FOUND');
    return reply.code(204).send();
  });

  routes.get('/recovery-copy', { schema: { response: { 200: wrappedCopyResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const copy = await repos.users.recoveryCopyOf(signedIn(request).user.id);
    if (copy === undefined) throw new SsoError('RECOVERY_COPY_NOT_FOUND');
    return { copy };
  });

  routes.put('/recovery-copy', { schema: { body: recoveryCopyBody.extend({ wrapped_for_spki: rsaSpki }) } }, async (request, reply) => {
    const { user } = signedIn(request);
    if (!(await repos.users.setRecoveryCopy(user.id, request.body.copy, request.body.wrapped_for_spki))) throw new ApiError('KEY_PAIR_CHANGED');
    return reply.code(204).send();
  });

  routes.post('/device-approvals', { schema: { body: approvalRequestBody.extend({ requester_spki: p256Spki }), response: { 201: approvalCreatedResponse } } }, async (request, reply) => {
    const { user } = signedIn(request);
    const now = app.now();
    const id = randomUUID();
    const expiresAt = now + APPROVAL_TTL_MS;
    const created = await repos.deviceApprovals.create({ id, userId: user.id, requesterSpki: request.body.requester_spki, requesterName: request.body.name, now, expiresAt }, MAX_PENDING_APPROVALS);
    if (!created) throw new SsoError('APPROVAL_LIMIT_REACHED');
    return reply.code(201).send({ id, expires_at: iso(expiresAt) });
  });

  routes.get('/device-approvals', { schema: { response: { 200: pendingApprovalsResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const pending = await repos.deviceApprovals.listPending(signedIn(request).user.id, app.now());
    return { approvals: pending.map(toPendingResponse) };
  });

  routes.get('/device-approvals/:approvalId', { schema: { params: approvalIdParams, response: { 200: approvalStatusResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const found = await repos.deviceApprovals.find(signedIn(request).user.id, request.params.approvalId, app.now());
    if (!found) throw new SsoError('APPROVAL_NOT_FOUND');
    if (found.approverSpki === null || found.wrappedPrivateKey === null) return { status: 'pending' as const, expires_at: iso(found.expiresAt) };
    return { status: 'approved' as const, approver_spki: found.approverSpki, copy: found.wrappedPrivateKey };
  });

  routes.post('/device-approvals/:approvalId/approve', { schema: { params: approvalIdParams, body: approveBody.extend({ approver_spki: p256Spki }) } }, async (request, reply) => {
    const { user } = signedIn(request);
    const answered = await repos.deviceApprovals.approve(user.id, request.params.approvalId, { approverSpki: request.body.approver_spki, wrappedPrivateKey: request.body.copy }, app.now());
    if (!answered) throw new SsoError('APPROVAL_NOT_FOUND');
    return reply.code(204).send();
  });

  // The requester removes its request once it has the key (or gives up); an approver may decline.
  routes.delete('/device-approvals/:approvalId', { schema: { params: approvalIdParams } }, async (request, reply) => {
    if (!(await repos.deviceApprovals.remove(signedIn(request).user.id, request.params.approvalId))) throw new SsoError('APPROVAL_NOT_FOUND');
    return reply.code(204).send();
  });
}
