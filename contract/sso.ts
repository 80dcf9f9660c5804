// Single sign-on, trusted devices and device approvals (docs/api.md "Single sign-on"). The server
// stores the copies of the private key as given: it cannot (and must not be able to) open them;
// their format is docs/format.md's "The private key after a single sign-on".
import { z } from 'zod';
import { ENCRYPTED_PRIVATE_KEY_MAX_LENGTH, PUBLIC_KEY_MAX_LENGTH } from './keys.ts';
import { passkeyName } from './passkeys.ts';

export const MAX_TRUSTED_DEVICES = 20;
export const MAX_PENDING_APPROVALS = 5;
/** How long a device approval request waits for an answer (and its answer for the requester). */
export const APPROVAL_TTL_MS = 10 * 60_000;

/** A browser's own id for itself: a random (version 4) UUID, lower case. */
export const DEVICE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const base64 = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${field} must be base64`);

const deviceId = z.string({ error: 'Device id must be text' }).regex(DEVICE_ID_PATTERN, 'Device id must be a random UUID (version 4, lower case)');
const copy = base64('Wrapped private key', ENCRYPTED_PRIVATE_KEY_MAX_LENGTH);
const spki = base64('Public key', PUBLIC_KEY_MAX_LENGTH);
/** An ECDH P-256 SPKI is 91 bytes (124 base64 characters). */
const ecdhSpki = base64('Public key', 200);
/** What a device calls itself ("Firefox on Linux"): the passkey name's rules. */
export const deviceName = passkeyName;

/**
 * `value` when it is a path of this app: one leading `/` not followed by another `/` or a `\`
 * (browsers read `//host` and `/\host` as another site), no back slash, control character or
 * white space anywhere, at most 512 characters, and still on this origin once parsed. Anything
 * else is null: the callback never sends a browser off the app.
 */
export function appPath(value: string): string | null {
  if (value.length === 0 || value.length > 512) return null;
  // eslint-disable-next-line no-control-regex
  if (!/^\/(?![/\\])/.test(value) || /[\\\s\u0000-\u001f\u007f]/.test(value)) return null;
  const base = 'http://app.invalid';
  try {
    const parsed = new URL(value, base);
    return parsed.origin === base ? value : null;
  } catch {
    return null;
  }
}

/** GET /auth/sso/start: `next`, where the app goes after signing in (and unlocking) again. */
export const ssoStartQuery = z.object({
  next: z
    .string({ error: 'next must be text' })
    .refine((value) => appPath(value) !== null, 'next must be a path of this app (one leading /, no back slash, no white space)')
    .optional(),
});
export type SsoStartQuery = z.infer<typeof ssoStartQuery>;

/** GET /auth/sso: what the sign-in page offers. */
export const ssoSettingsResponse = z.object({
  /** Null: single sign-on is not set up. `name` completes "Sign in with …". */
  sso: z.object({ name: z.string() }).nullable(),
  /** False: the organisation signs in through its provider only (PASSWORD_SIGN_IN=off). */
  password_sign_in: z.boolean(),
});
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponse>;

/** POST /auth/logout's answer: where the browser goes to end the provider's session too, if anywhere. */
export const logoutResponse = z.object({ detail: z.string(), end_session_url: z.string().nullable() });
export type LogoutResponse = z.infer<typeof logoutResponse>;

/** POST /auth/sso/key-pair: a single sign-on account's first key pair. */
export const ssoKeyPairBody = z.object({
  public_key_spki: spki,
  recovery_copy: copy,
  device: z.object({ id: deviceId, name: deviceName, copy }),
});
export type SsoKeyPairBody = z.input<typeof ssoKeyPairBody>;

/** PUT /auth/devices/:deviceId: trust this browser (a copy of the private key it alone opens). */
export const trustDeviceBody = z.object({ name: deviceName, copy, wrapped_for_spki: spki });
export type TrustDeviceBody = z.input<typeof trustDeviceBody>;

export const deviceIdParams = z.object({ deviceId });

/** Times as ISO 8601 text, like the passkeys list's. */
export const trustedDevice = z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });
export type TrustedDevice = z.infer<typeof trustedDevice>;
export const trustedDevicesResponse = z.object({ devices: z.array(trustedDevice) });
export type TrustedDevicesResponse = z.infer<typeof trustedDevicesResponse>;

/** GET /auth/devices/:deviceId/copy, GET /auth/recovery-copy. */
export const wrappedCopyResponse = z.object({ copy: z.string() });
export type WrappedCopyResponse = z.infer<typeof wrappedCopyResponse>;

/** PUT /auth/recovery-copy: a new recovery key's copy (the old one stops working). */
export const recoveryCopyBody = z.object({ copy, wrapped_for_spki: spki });
export type RecoveryCopyBody = z.input<typeof recoveryCopyBody>;

/** POST /auth/device-approvals: a new device asks to be given the private key. */
export const approvalRequestBody = z.object({ requester_spki: ecdhSpki, name: deviceName });
export type ApprovalRequestBody = z.input<typeof approvalRequestBody>;

export const approvalIdParams = z.object({ approvalId: deviceId });

export const pendingApproval = z.object({
  id: z.string(),
  name: z.string(),
  requester_spki: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PendingApproval = z.infer<typeof pendingApproval>;
export const pendingApprovalsResponse = z.object({ approvals: z.array(pendingApproval) });
export type PendingApprovalsResponse = z.infer<typeof pendingApprovalsResponse>;

/** POST /auth/device-approvals: the request's id and when it expires. */
export const approvalCreatedResponse = z.object({ id: z.string(), expires_at: z.string() });
export type ApprovalCreatedResponse = z.infer<typeof approvalCreatedResponse>;

/** POST /auth/device-approvals/:approvalId/approve: the approver's answer. */
export const approveBody = z.object({ approver_spki: ecdhSpki, copy });
export type ApproveBody = z.input<typeof approveBody>;

/** GET /auth/device-approvals/:approvalId: the requester polls until it is answered. */
export const approvalStatusResponse = z.union([
  z.object({ status: z.literal('pending'), expires_at: z.string() }),
  z.object({ status: z.literal('approved'), approver_spki: z.string(), copy: z.string() }),
]);
export type ApprovalStatusResponse = z.infer<typeof approvalStatusResponse>;
