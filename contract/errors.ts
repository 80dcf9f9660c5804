// The body of every error answer (docs/api.md, "Error codes"): `detail` is the text a person
// reads, `code` the fixed name a client branches on. A 422 carries the list of refused values
// instead of a text. Routes do not declare these as response schemas: the server's one error
// handler writes them, and a client reads them defensively (an answer may come from a proxy).
import { z } from 'zod';

/**
 * Every code an error answer of the server can carry, the one list (docs/api.md, "Error codes").
 * The server's error classes and tables take their codes from this union, so a code cannot exist
 * on the server without being here; the browser's mapping keys its rows by it.
 */
export const API_ERROR_CODES = [
  // sign-in, session, account
  'NOT_AUTHENTICATED',
  'SESSION_EXPIRED',
  'INCORRECT_CREDENTIALS',
  'INCORRECT_PASSWORD',
  'SIGN_IN_UPGRADE_REQUIRED',
  'OLD_SCHEME_SIGN_IN_CLOSED',
  'LOGIN_ALREADY_UPGRADED',
  'KEY_PAIR_CHANGED',
  'LOGIN_CHANGED',
  'KDF_PARAMS_NOT_BOUND',
  'INVALID_TOTP_CODE',
  'CSRF_FAILED',
  'USERNAME_TAKEN',
  'TWO_FACTOR_ALREADY_ENABLED',
  'TWO_FACTOR_NOT_STARTED',
  'VALIDATION_FAILED',
  'RATE_LIMITED',
  'PUBLIC_KEY_NOT_FOUND',
  'ENCRYPTED_KEY_NOT_FOUND',
  // organisation: accounts and invitations
  'ACCOUNT_DISABLED',
  'ORG_ADMIN_REQUIRED',
  'ACCOUNT_NOT_FOUND',
  'CANNOT_DISABLE_SELF',
  'LAST_ORG_ADMIN',
  'INVITATION_NOT_FOUND',
  'INVITATION_EXPIRED',
  'INVITATION_USED',
  'INVITATION_REVOKED',
  'INVITATION_PENDING',
  'INVITATION_MAIL_FAILED',
  // passkeys
  'PASSKEYS_UNAVAILABLE',
  'PASSKEY_REAUTH_REQUIRED',
  'PASSKEY_LIMIT_REACHED',
  'PASSKEY_NOT_FOUND',
  'PASSKEY_ALREADY_REGISTERED',
  'PASSKEY_CHALLENGE_INVALID',
  'PASSKEY_CHALLENGE_USED',
  'PASSKEY_ORIGIN_MISMATCH',
  'PASSKEY_USER_MISMATCH',
  'PASSKEY_COUNTER_REGRESSED',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_SIGN_IN_THROUGH_SSO',
  // single sign-on, trusted devices, device approvals
  'SSO_NOT_CONFIGURED',
  'SSO_PROVIDER_UNAVAILABLE',
  'SSO_FLOW_INVALID',
  'SSO_SIGN_IN_FAILED',
  'SSO_NOT_ALLOWED',
  'SSO_EMAIL_UNVERIFIED',
  'PASSWORD_SIGN_IN_OFF',
  'KEY_PAIR_EXISTS',
  'DEVICE_NOT_FOUND',
  'DEVICE_LIMIT_REACHED',
  'APPROVAL_NOT_FOUND',
  'APPROVAL_LIMIT_REACHED',
  'RECOVERY_COPY_NOT_FOUND',
  // the organisation recovery policy
  'ORG_RECOVERY_OFF',
  'ORG_RECOVERY_ON',
  'ORG_KEY_CHANGED',
  'ORG_RECOVERY_COPY_NOT_FOUND',
  // folders, files, storage
  'FOLDER_NOT_FOUND',
  'FILE_NOT_FOUND',
  'UPLOAD_NOT_FOUND',
  'EXPORT_FILES_NOT_FOUND',
  'EXPORT_BLOB_MISSING',
  'STORAGE_FULL',
  'DISK_FULL',
  'FOLDER_QUOTA_EXCEEDED',
  // team folders
  'TEAM_MANIFEST_INVALID',
  'TEAM_CHANGED',
  'TEAM_EXISTS',
  'FOLDER_KEY_CHANGED',
  'FOLDER_ROLE_REQUIRED',
  // download links, webhooks
  'LINK_NOT_FOUND',
  'LINK_EXPIRED',
  'LINK_PASSWORD_REQUIRED',
  'LINK_WITHOUT_PASSWORD',
  'HOST_NOT_ALLOWED',
  'WEBHOOK_NOT_FOUND',
  'WEBHOOK_NEEDS_PUBLIC_URL',
  'WEBHOOK_URL_REFUSED',
  // upload links
  'LINK_INVALID',
  'INCORRECT_LINK_PASSWORD',
  'EMAIL_VERIFICATION_REQUIRED',
  'EMAIL_NOT_ALLOWED',
  'INVALID_CODE',
  'EMAIL_NOT_REQUIRED',
  'PUBLIC_KEY_MISSING',
  'ARRAY_LENGTH_MISMATCH',
  'NOT_MULTIPART',
  'MALFORMED_MULTIPART',
  'NO_FILES',
  'TOO_MANY_PARTS',
  'FILE_TOO_LARGE',
  // refusals of the HTTP layer, one per status, and anything unexpected
  'BAD_REQUEST',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'REQUEST_TIMEOUT',
  'LENGTH_REQUIRED',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'EXPECTATION_FAILED',
  'HEADERS_TOO_LARGE',
  'CLIENT_ERROR',
  'INTERNAL',
] as const;

export type ServerErrorCode = (typeof API_ERROR_CODES)[number];

/** The code of a 422: a body, query or path value the route's schema refuses. */
export const VALIDATION_FAILED = 'VALIDATION_FAILED' satisfies ServerErrorCode;

/** One refused value: where it was (`["body", "field"]`, `["params", "id"]`) and why. */
export const validationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssue>;

export const errorResponse = z.object({
  detail: z.union([z.string(), z.array(validationIssue)]),
  code: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
