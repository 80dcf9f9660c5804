// Accounts of the organisation (docs/api.md, "Organisation"): roles, invitations by e-mail, the
// members list of organisation admins, and the directory of active accounts' public keys that any
// signed-in account reads to pick folder members. Times are ISO 8601 strings.
import { z } from 'zod';
import { authSecret, kdfParamsText, usernameSchema } from './auth.ts';
import { rowIdParam, withoutNul } from './common.ts';

/** `admin`: invites, disables and enables accounts; `member`: neither. Neither reads anyone's files. */
export const ORG_ROLES = ['admin', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const DISPLAY_NAME_MAX_LENGTH = 100;

const orgRole = z.enum(ORG_ROLES, { error: 'Role must be admin or member' });

const displayName = withoutNul(
  z.string({ error: 'Display name must be text' }).trim().max(DISPLAY_NAME_MAX_LENGTH, `Display name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`),
  'Display name',
);

/** The link's token: 256 bits, base64url. SECRET while the invitation is open: never log it. */
const invitationToken = z.string({ error: 'Invitation token must be text' }).regex(INVITATION_TOKEN_PATTERN, 'Invitation token is malformed');

/** POST /org/invitations. A blank display name is none. */
export const invitationBody = z.object({
  email: z.email({ error: 'Enter a valid e-mail address' }).max(320, 'E-mail must be at most 320 characters'),
  display_name: displayName.optional().nullable().transform((value) => (value ? value : null)),
  org_role: orgRole.default('member'),
});
export type InvitationBody = z.input<typeof invitationBody>;

export const INVITATION_STATUSES = ['pending', 'expired', 'accepted', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const invitationResponse = z.object({
  id: z.number(),
  email: z.string(),
  display_name: z.string().nullable(),
  org_role: orgRole,
  status: z.enum(INVITATION_STATUSES),
  invited_by: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationResponse>;

export const invitationListResponse = z.object({ invitations: z.array(invitationResponse) });
export type InvitationList = z.infer<typeof invitationListResponse>;

export const invitationIdParams = z.object({ invitationId: rowIdParam('Invitation') });
export const accountIdParams = z.object({ accountId: rowIdParam('Account') });

/** POST /invitations/open: what the invitee is shown before choosing a name and password. */
export const invitationTokenBody = z.object({ token: invitationToken });
export type InvitationTokenBody = z.input<typeof invitationTokenBody>;

export const openInvitationResponse = z.object({
  email: z.string(),
  display_name: z.string().nullable(),
  org_role: orgRole,
  expires_at: z.string(),
});
export type OpenInvitation = z.infer<typeof openInvitationResponse>;

/**
 * POST /invitations/accept: the new account's name and the login secret the invitee's browser
 * derived from the password it chose (a fresh scheme-3 block bound to that name at the default
 * cost, exactly as a password change makes one). The password never arrives.
 */
export const acceptInvitationBody = z.object({
  token: invitationToken,
  username: usernameSchema,
  kdf_params: kdfParamsText('KDF parameters'),
  auth_secret: authSecret('Authentication secret'),
});
export type AcceptInvitationBody = z.input<typeof acceptInvitationBody>;

export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** One row of the organisation admins' members page. */
export const orgAccountResponse = z.object({
  id: z.number(),
  username: z.string(),
  display_name: z.string().nullable(),
  email: z.string().nullable(),
  org_role: orgRole,
  status: z.enum(ACCOUNT_STATUSES),
  is_2fa_enabled: z.boolean(),
  /** base64 SPKI; the page computes the fingerprint itself (never trusting one the server sends). */
  public_key_spki: z.string().nullable(),
  invited_at: z.string().nullable(),
  joined_at: z.string(),
  disabled_at: z.string().nullable(),
  /** Folders the account owns: their upload and download links keep working while it is disabled. */
  folder_count: z.number(),
});
export type OrgAccount = z.infer<typeof orgAccountResponse>;

export const orgAccountListResponse = z.object({ accounts: z.array(orgAccountResponse) });
export type OrgAccountList = z.infer<typeof orgAccountListResponse>;

/** GET /org/directory: active accounts and their public keys, for picking folder members. */
export const directoryEntryResponse = z.object({
  id: z.number(),
  username: z.string(),
  display_name: z.string().nullable(),
  public_key_spki: z.string().nullable(),
});
export type DirectoryEntry = z.infer<typeof directoryEntryResponse>;

export const directoryResponse = z.object({ accounts: z.array(directoryEntryResponse) });
export type Directory = z.infer<typeof directoryResponse>;
