// The organisation recovery policy (docs/api.md "Organisation recovery"): the organisation key
// (ECDH P-256) while the policy is on, the admins' copies of its private key and the members'
// copies of theirs. The server stores the copies as given and cannot open them; their format is
// docs/format.md's "The organisation recovery key".
import { z } from 'zod';
import { ENCRYPTED_PRIVATE_KEY_MAX_LENGTH, PUBLIC_KEY_MAX_LENGTH } from './keys.ts';
import { accountIdParams } from './organisation.ts';
import { DEVICE_ID_PATTERN, pendingApproval } from './sso.ts';

const base64 = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${field} must be base64`);

/** A key id: a random (version 4) UUID, lower case, made by the server. */
const keyId = z.string({ error: 'Key id must be text' }).regex(DEVICE_ID_PATTERN, 'Key id must be a random UUID (version 4, lower case)');
const copy = base64('Wrapped private key', ENCRYPTED_PRIVATE_KEY_MAX_LENGTH);
const spki = base64('Public key', PUBLIC_KEY_MAX_LENGTH);
/** An ECDH P-256 SPKI is 91 bytes (124 base64 characters). */
const ecdhSpki = base64('Public key', 200);

export const orgRecoveryKey = z.object({
  id: z.string(),
  /** ECDH P-256, base64 SPKI. A client computes the fingerprint from it itself. */
  public_key_spki: z.string(),
  enabled_at: z.string(),
  /** The admin who turned the policy on (null: that account is gone). */
  enabled_by: z.string().nullable(),
});
export type OrgRecoveryKey = z.infer<typeof orgRecoveryKey>;

/** GET /org/recovery: the policy as organisation admins see it. */
export const orgRecoveryStatus = z.object({
  /** Null: the policy is off. */
  key: orgRecoveryKey.nullable(),
  /** This admin's copy of the organisation private key, while it is sealed to their current key pair. */
  admin_copy: z.string().nullable(),
  /** Active organisation admins: who holds a copy, and each one's public key to seal one to. */
  admins: z.array(z.object({ id: z.number(), username: z.string(), public_key_spki: z.string().nullable(), has_copy: z.boolean() })),
  /** Accounts whose key is held for the organisation, or with approval requests waiting. */
  members: z.array(z.object({ id: z.number(), has_copy: z.boolean(), pending_approvals: z.number() })),
});
export type OrgRecoveryStatus = z.infer<typeof orgRecoveryStatus>;

/** POST /org/recovery: turn the policy on with a key made in the admin's browser. */
export const enableOrgRecoveryBody = z.object({
  public_key_spki: ecdhSpki,
  /** The organisation private key sealed to the admin's own account key... */
  admin_copy: copy,
  /** ...which is this public key (the admin's, as their browser has it). */
  wrapped_for_spki: spki,
});
export type EnableOrgRecoveryBody = z.input<typeof enableOrgRecoveryBody>;

/** PUT /org/recovery/admins/:accountId/copy: another organisation admin's copy of the organisation private key. */
export const adminCopyBody = z.object({ key_id: keyId, wrapped_for_spki: spki, copy });
export type AdminCopyBody = z.input<typeof adminCopyBody>;

/** GET /org/recovery/members/:accountId: what an admin needs to restore a member's access. */
export const orgRecoveryMember = z.object({
  id: z.number(),
  username: z.string(),
  public_key_spki: z.string().nullable(),
  /** The member's private key sealed to the organisation key (null: none for their current key pair). */
  copy: z.string().nullable(),
  /** The member's approval requests waiting for an answer (their new browsers). */
  approvals: z.array(pendingApproval),
});
export type OrgRecoveryMember = z.infer<typeof orgRecoveryMember>;

export const memberApprovalParams = accountIdParams.extend({
  approvalId: z.string({ error: 'Request id must be text' }).regex(DEVICE_ID_PATTERN, 'Request id must be a random UUID (version 4, lower case)'),
});

/** POST /org/recovery/members/:accountId/approvals/:approvalId/restore: the member's key sealed to their request. */
export const restoreBody = z.object({ key_id: keyId, approver_spki: ecdhSpki, copy });
export type RestoreBody = z.input<typeof restoreBody>;

/** GET /auth/org-recovery-copy: whether the policy is on and the member's copy is stored. */
export const memberRecoveryState = z.object({
  /** Null: the policy is off. */
  key: z.object({ id: z.string(), public_key_spki: z.string() }).nullable(),
  /** A copy for this key and the account's current key pair is stored. */
  stored: z.boolean(),
});
export type MemberRecoveryState = z.infer<typeof memberRecoveryState>;

/** PUT /auth/org-recovery-copy: the member's private key sealed to the organisation key `key_id`. */
export const memberCopyBody = z.object({ key_id: keyId, wrapped_for_spki: spki, copy });
export type MemberCopyBody = z.input<typeof memberCopyBody>;
