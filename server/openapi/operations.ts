// What the route schemas cannot say about each operation: a summary, the error codes beyond the
// ones every route of its kind can give (document.ts adds 401/403/422 from the route's access and
// schemas), and the bodies that are not JSON (form, multipart, tus, ciphertext, ZIP). The shapes of
// JSON bodies and answers are not here: they come from the routes' own contract schemas. One entry
// per operation the router lists; tests/server/openapi.test.ts fails when the two drift apart.
import type { OpenApiOperationNotes } from './types.ts';

const LINK_TOKEN = 'The link token (43 characters, base64url).';

const CIPHERTEXT_HEADERS = {
  'x-encryption-iv': 'The file\'s IV, base64.',
  'x-file-size': 'The plaintext size in bytes.',
  'content-range': 'On 206: `bytes a-b/total`.',
  etag: 'Stable for the blob (blobs never change).',
  'content-disposition': 'attachment, with the original name (RFC 6266 filename*).',
};

const RANGE_HEADERS = [
  { name: 'range', description: 'One byte range: `bytes=a-b`, `bytes=a-` or `bytes=-n`; several ranges are ignored (200).' },
  { name: 'if-range', description: 'The range is honoured only when this equals the current etag.' },
];

const TUS_RESUMABLE = { name: 'tus-resumable', description: 'Always `1.0.0`.', required: true };

const TUS_TEXT_ERRORS = 'tus protocol errors answer with a plain-text body (docs/api.md, "Resumable: tus 1.0").';

export const OPERATION_NOTES: Record<string, OpenApiOperationNotes> = {
  'GET /healthz': { tag: 'operations', summary: 'Liveness: the process answers (restart it when this fails)' },
  'GET /readyz': {
    tag: 'operations',
    summary: 'Readiness: the database and the blob store answer and the process is neither starting nor draining (503 otherwise: take it out of rotation)',
  },
  'GET /metrics': {
    tag: 'operations',
    summary:
      'Prometheus metrics (text exposition format). Off unless configured: 404 here then, and when METRICS_PORT is set they are on that port instead; with METRICS_TOKEN a bearer token is required (docs/operations.md)',
    rawResponse: 'text/plain; version=0.0.4',
    errors: { 401: ['NOT_AUTHENTICATED'], 404: ['NOT_FOUND'] },
  },
  'POST /api/auth/prelogin': {
    tag: 'auth',
    summary: 'The KDF parameters to derive the authentication secret with (any name gets an answer)',
    errors: { 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/token': {
    tag: 'auth',
    summary: 'Log in with username and authentication secret (second step follows when 2FA is on)',
    form: true,
    errors: { 401: ['INCORRECT_CREDENTIALS', 'SIGN_IN_UPGRADE_REQUIRED'], 403: ['OLD_SCHEME_SIGN_IN_CLOSED', 'ACCOUNT_DISABLED'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/token/2fa': { tag: 'auth', summary: 'Log in: the authenticator code step', errors: { 401: ['INVALID_TOTP_CODE'], 403: ['ACCOUNT_DISABLED'], 429: ['RATE_LIMITED'] } },
  'POST /api/auth/logout': { tag: 'auth', summary: 'End the session (works without one too)' },
  'GET /api/auth/users/me': { tag: 'auth', summary: 'The signed-in user' },
  'PUT /api/auth/users/me/language': { tag: 'auth', summary: "Set the language of the account's notification e-mails (a code of the server's languages)", noContent: true },
  'PUT /api/auth/users/me': {
    tag: 'auth',
    summary: 'Change username or e-mail (needs the current password\'s authentication secret; a new username re-keys the login to it)',
    errors: {
      401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED'],
      409: ['USERNAME_TAKEN', 'LOGIN_CHANGED', 'KEY_PAIR_CHANGED'],
      422: ['KDF_PARAMS_NOT_BOUND'],
      429: ['RATE_LIMITED'],
    },
  },
  'POST /api/auth/2fa/setup': { tag: 'auth', summary: 'Start two-factor setup: a pending secret', errors: { 400: ['TWO_FACTOR_ALREADY_ENABLED'] } },
  'POST /api/auth/2fa/enable': {
    tag: 'auth',
    summary: 'Enable two-factor authentication with a first code',
    errors: { 400: ['TWO_FACTOR_NOT_STARTED', 'TWO_FACTOR_ALREADY_ENABLED'], 401: ['INVALID_TOTP_CODE'], 429: ['RATE_LIMITED'] },
  },
  'GET /api/org/accounts': {
    tag: 'organisation',
    summary: 'Every account of the organisation with role, status, dates, public key and folder count (organisation admins)',
    errors: { 403: ['ORG_ADMIN_REQUIRED'] },
  },
  'POST /api/org/accounts/{accountId}/disable': {
    tag: 'organisation',
    summary: 'Disable an account: its sessions end at once and it cannot sign in; its folders and links keep working (organisation admins)',
    params: { accountId: 'The account id.' },
    errors: { 403: ['ORG_ADMIN_REQUIRED'], 404: ['ACCOUNT_NOT_FOUND'], 409: ['CANNOT_DISABLE_SELF', 'LAST_ORG_ADMIN'] },
  },
  'POST /api/org/accounts/{accountId}/enable': {
    tag: 'organisation',
    summary: 'Enable a disabled account again (organisation admins)',
    params: { accountId: 'The account id.' },
    errors: { 403: ['ORG_ADMIN_REQUIRED'], 404: ['ACCOUNT_NOT_FOUND'] },
  },
  'GET /api/org/invitations': { tag: 'organisation', summary: 'Every invitation, newest first, with its status (organisation admins)', errors: { 403: ['ORG_ADMIN_REQUIRED'] } },
  'POST /api/org/invitations': {
    tag: 'organisation',
    summary: 'Invite a person by e-mail: a single-use link valid for 7 days is mailed to them (organisation admins)',
    errors: { 403: ['ORG_ADMIN_REQUIRED'], 409: ['INVITATION_PENDING'], 421: ['HOST_NOT_ALLOWED'], 502: ['INVITATION_MAIL_FAILED'] },
  },
  'POST /api/org/invitations/{invitationId}/resend': {
    tag: 'organisation',
    summary: 'Mail the invitation again with a new link and a new expiry; the previous link stops working (organisation admins)',
    params: { invitationId: 'The invitation id.' },
    errors: { 403: ['ORG_ADMIN_REQUIRED'], 404: ['INVITATION_NOT_FOUND'], 410: ['INVITATION_USED', 'INVITATION_REVOKED'], 421: ['HOST_NOT_ALLOWED'], 502: ['INVITATION_MAIL_FAILED'] },
  },
  'POST /api/org/invitations/{invitationId}/revoke': {
    tag: 'organisation',
    summary: 'Withdraw an invitation not yet accepted: its link stops working (organisation admins)',
    params: { invitationId: 'The invitation id.' },
    errors: { 403: ['ORG_ADMIN_REQUIRED'], 404: ['INVITATION_NOT_FOUND'], 410: ['INVITATION_USED', 'INVITATION_REVOKED'] },
  },
  'GET /api/org/directory': { tag: 'organisation', summary: 'Active accounts and their public keys, for picking folder members (any signed-in account)' },
  'POST /api/invitations/open': {
    tag: 'organisation',
    summary: 'What an invitation is for (address, name, role, expiry), while it can be accepted',
    errors: { 404: ['INVITATION_NOT_FOUND'], 410: ['INVITATION_EXPIRED', 'INVITATION_USED', 'INVITATION_REVOKED'] },
  },
  'POST /api/invitations/accept': {
    tag: 'organisation',
    summary: 'Create the invited account from the login secret the browser derived, and sign it in',
    errors: { 404: ['INVITATION_NOT_FOUND'], 409: ['USERNAME_TAKEN'], 410: ['INVITATION_EXPIRED', 'INVITATION_USED', 'INVITATION_REVOKED'], 422: ['KDF_PARAMS_NOT_BOUND'] },
  },
  'POST /api/auth/2fa/disable': {
    tag: 'auth',
    summary: 'Disable two-factor authentication',
    errors: { 401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/verify-password': {
    tag: 'auth',
    summary: 'Check the login password again (its authentication secret)',
    errors: { 401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/change-password': {
    tag: 'auth',
    summary: 'Change the login password (ends the other sessions)',
    errors: { 401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED'], 422: ['KDF_PARAMS_NOT_BOUND'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/upgrade-login': {
    tag: 'auth',
    summary: 'Move an account of the old sign-in to the new one: new secret and re-wrapped key in one step',
    errors: { 401: ['INCORRECT_PASSWORD'], 409: ['LOGIN_ALREADY_UPGRADED', 'KEY_PAIR_CHANGED'], 422: ['KDF_PARAMS_NOT_BOUND'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/bind-login': {
    tag: 'auth',
    summary: "Move an account's parameter block to one bound to its username: new secret and re-wrapped key in one step",
    errors: {
      401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED'],
      409: ['LOGIN_ALREADY_UPGRADED', 'LOGIN_CHANGED', 'KEY_PAIR_CHANGED'],
      422: ['KDF_PARAMS_NOT_BOUND'],
      429: ['RATE_LIMITED'],
    },
  },
  'POST /api/auth/passkeys/sign-in/options': {
    tag: 'passkeys',
    summary: 'Options for navigator.credentials.get() to sign in with a passkey (no username: the passkey names the account)',
    errors: { 409: ['PASSKEYS_UNAVAILABLE'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/auth/passkeys/sign-in': {
    tag: 'passkeys',
    summary: "Sign in with a passkey's assertion (both factors); answers the passkey's wrapped copy of the private key when it has one",
    errors: {
      401: ['PASSKEY_CHALLENGE_INVALID', 'PASSKEY_CHALLENGE_USED', 'PASSKEY_ORIGIN_MISMATCH', 'PASSKEY_USER_MISMATCH', 'PASSKEY_COUNTER_REGRESSED', 'PASSKEY_VERIFICATION_FAILED'],
      404: ['PASSKEY_NOT_FOUND'],
      409: ['PASSKEYS_UNAVAILABLE'],
      429: ['RATE_LIMITED'],
    },
  },
  'POST /api/auth/passkeys/reauth/options': {
    tag: 'passkeys',
    summary: "Options for navigator.credentials.get() to confirm with one of the signed-in user's passkeys",
    errors: { 409: ['PASSKEYS_UNAVAILABLE'] },
  },
  'POST /api/auth/reauth': {
    tag: 'passkeys',
    summary: 'Confirm the signed-in user again (password secret or passkey assertion): passkeys may be changed for 5 minutes',
    errors: {
      401: ['INCORRECT_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED', 'PASSKEY_CHALLENGE_INVALID', 'PASSKEY_CHALLENGE_USED', 'PASSKEY_ORIGIN_MISMATCH', 'PASSKEY_USER_MISMATCH', 'PASSKEY_COUNTER_REGRESSED', 'PASSKEY_VERIFICATION_FAILED'],
      404: ['PASSKEY_NOT_FOUND'],
      409: ['PASSKEYS_UNAVAILABLE'],
      429: ['RATE_LIMITED'],
    },
  },
  'GET /api/auth/passkeys': { tag: 'passkeys', summary: "The signed-in user's passkeys" },
  'POST /api/auth/passkeys/register/options': {
    tag: 'passkeys',
    summary: 'Options for navigator.credentials.create() to add a passkey (after a re-authentication)',
    errors: { 403: ['PASSKEY_REAUTH_REQUIRED'], 409: ['PASSKEYS_UNAVAILABLE', 'PASSKEY_LIMIT_REACHED'] },
  },
  'POST /api/auth/passkeys': {
    tag: 'passkeys',
    summary: 'Add a passkey: its name, the attestation and, with PRF, its wrapped copy of the private key',
    errors: {
      401: ['PASSKEY_CHALLENGE_INVALID', 'PASSKEY_CHALLENGE_USED', 'PASSKEY_ORIGIN_MISMATCH', 'PASSKEY_VERIFICATION_FAILED'],
      403: ['PASSKEY_REAUTH_REQUIRED'],
      409: ['PASSKEYS_UNAVAILABLE', 'PASSKEY_LIMIT_REACHED', 'PASSKEY_ALREADY_REGISTERED', 'KEY_PAIR_CHANGED'],
    },
  },
  'PATCH /api/auth/passkeys/{id}': {
    tag: 'passkeys',
    summary: 'Rename a passkey (after a re-authentication)',
    params: { id: 'The passkey id.' },
    errors: { 403: ['PASSKEY_REAUTH_REQUIRED'], 404: ['PASSKEY_NOT_FOUND'] },
  },
  'DELETE /api/auth/passkeys/{id}': {
    tag: 'passkeys',
    summary: 'Remove a passkey and its wrapped copy (after a re-authentication)',
    params: { id: 'The passkey id.' },
    errors: { 403: ['PASSKEY_REAUTH_REQUIRED'], 404: ['PASSKEY_NOT_FOUND'] },
  },
  'PUT /api/auth/public-key': { tag: 'keys', summary: 'Store the RSA-2048 public key (SPKI)' },
  'GET /api/auth/public-key': { tag: 'keys', summary: 'The stored public key', errors: { 404: ['PUBLIC_KEY_NOT_FOUND'] } },
  'GET /api/auth/users/me/encrypted-key': {
    tag: 'keys',
    summary: 'The private key, wrapped under the login password',
    errors: { 404: ['ENCRYPTED_KEY_NOT_FOUND'] },
  },
  'PUT /api/auth/users/me/encrypted-key': { tag: 'keys', summary: 'Store the wrapped private key' },
  'GET /api/auth/webhook': { tag: 'webhooks', summary: 'The webhook endpoint and its recent deliveries' },
  'PUT /api/auth/webhook': {
    tag: 'webhooks',
    summary: 'Set the webhook URL (or rotate its secret)',
    errors: { 409: ['WEBHOOK_NEEDS_PUBLIC_URL'], 422: ['WEBHOOK_URL_REFUSED'] },
  },
  'DELETE /api/auth/webhook': { tag: 'webhooks', summary: 'Remove the webhook', noContent: true, errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
  'POST /api/auth/webhook/test': { tag: 'webhooks', summary: 'Queue a test delivery', errors: { 404: ['WEBHOOK_NOT_FOUND'] } },
  'GET /api/folders': { tag: 'folders', summary: 'The account\'s folders and those it is a member of, sorted, each with my_role and is_team' },
  'POST /api/folders': { tag: 'folders', summary: 'Create a folder (and its upload link)' },
  'GET /api/folders/{id}': { tag: 'folders', summary: 'One folder', errors: { 404: ['FOLDER_NOT_FOUND'] } },
  'PUT /api/folders/{id}': { tag: 'folders', summary: 'Change a folder (owner, managers)', errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND'] } },
  'DELETE /api/folders/{id}': { tag: 'folders', summary: 'Delete a folder with its files (its owner only)', noContent: true, errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND'] } },
  'GET /api/folders/{id}/files': { tag: 'files', summary: 'A folder\'s files, in upload order', errors: { 404: ['FOLDER_NOT_FOUND'] } },
  'GET /api/folders/download/{fileId}': {
    tag: 'files',
    summary: 'A file\'s ciphertext (docs/format.md), with its wrapped key in x-encrypted-key',
    binary: { mediaType: 'application/octet-stream', headers: { 'x-encrypted-key': 'The file key wrapped with the admin\'s public key.', ...CIPHERTEXT_HEADERS }, ranges: true },
    requestHeaders: RANGE_HEADERS,
    errors: { 404: ['FILE_NOT_FOUND'], 416: ['RANGE_NOT_SATISFIABLE'] },
  },
  'POST /api/folders/files/delete': { tag: 'files', summary: 'Delete files (owner, managers; the ones not found come back in errors)', errors: { 403: ['FOLDER_ROLE_REQUIRED'] } },
  'GET /api/folders/{id}/export': {
    tag: 'files',
    summary: 'Export a folder\'s ciphertext as a ZIP for recovery without the server',
    binary: { mediaType: 'application/zip', headers: { 'content-disposition': 'attachment; `<folder title>-export.zip`.' } },
    errors: { 404: ['FOLDER_NOT_FOUND', 'EXPORT_FILES_NOT_FOUND', 'EXPORT_BLOB_MISSING'] },
  },
  'GET /api/folders/{id}/uploads': {
    tag: 'files',
    summary: 'The folder\'s unfinished resumable uploads, with the bytes each holds',
    errors: { 404: ['FOLDER_NOT_FOUND'] },
  },
  'DELETE /api/folders/{id}/uploads/{uploadId}': {
    tag: 'files',
    summary: 'Cancel an unfinished upload (owner, managers; its bytes are freed at once)',
    noContent: true,
    errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND', 'UPLOAD_NOT_FOUND'] },
  },
  'GET /api/folders/{id}/notifications': { tag: 'folders', summary: 'The folder\'s upload notification setting', errors: { 404: ['FOLDER_NOT_FOUND'] } },
  'PUT /api/folders/{id}/notifications': { tag: 'folders', summary: 'Change the upload notification setting (owner, managers)', errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND'] } },
  'GET /api/folders/{id}/team': {
    tag: 'team-folders',
    summary: 'Members: the signed member list (every version), member rows, key epochs and the caller\'s envelopes (docs/team-folders.md); empty lists for a personal folder',
    errors: { 404: ['FOLDER_NOT_FOUND'] },
  },
  'POST /api/folders/{id}/team': {
    tag: 'team-folders',
    summary: 'Owner: share a personal folder (version 1, epoch 1, envelopes, every file key re-sealed to epoch 1), in one transaction',
    errors: { 400: ['TEAM_MANIFEST_INVALID'], 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND'], 409: ['TEAM_EXISTS', 'TEAM_CHANGED'], 413: ['PAYLOAD_TOO_LARGE'] },
  },
  'POST /api/folders/{id}/team/versions': {
    tag: 'team-folders',
    summary: 'Owner, managers: store the next signed version (add, remove with a new epoch, change a role), conditional on expected_seq',
    errors: { 400: ['TEAM_MANIFEST_INVALID'], 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FOLDER_NOT_FOUND'], 409: ['TEAM_CHANGED'], 413: ['PAYLOAD_TOO_LARGE'] },
  },
  'PUT /api/folders/{id}/team/me': {
    tag: 'team-folders',
    summary: 'Members: whether this member receives the folder\'s upload notifications',
    errors: { 404: ['FOLDER_NOT_FOUND', 'NOT_FOUND'] },
  },
  'POST /api/download/links': { tag: 'download-links', summary: 'Create a download link for files (owner, managers)', errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['FILE_NOT_FOUND'], 421: ['HOST_NOT_ALLOWED'] } },
  'GET /api/download/links/folder/{folderId}': { tag: 'download-links', summary: 'A folder\'s download links', errors: { 404: ['FOLDER_NOT_FOUND'] } },
  'DELETE /api/download/links/{id}': { tag: 'download-links', summary: 'Delete a download link (owner, managers)', noContent: true, errors: { 403: ['FOLDER_ROLE_REQUIRED'], 404: ['LINK_NOT_FOUND'] } },
  'GET /api/download/{link_token}/status': {
    tag: 'download-links',
    summary: 'Recipient: the link\'s files and whether it needs a password',
    params: { link_token: LINK_TOKEN },
    errors: { 404: ['LINK_NOT_FOUND'], 410: ['LINK_EXPIRED'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/download/{link_token}/verify-password': {
    tag: 'download-links',
    summary: 'Recipient: check the password verifier; answers the wrapped keys and a grant cookie',
    params: { link_token: LINK_TOKEN },
    errors: { 400: ['LINK_WITHOUT_PASSWORD'], 401: ['INCORRECT_PASSWORD'], 404: ['LINK_NOT_FOUND'], 410: ['LINK_EXPIRED'], 429: ['RATE_LIMITED'] },
  },
  'GET /api/download/{link_token}/file/{fileId}': {
    tag: 'download-links',
    summary: 'Recipient: one file\'s ciphertext',
    params: { link_token: LINK_TOKEN },
    binary: { mediaType: 'application/octet-stream', headers: CIPHERTEXT_HEADERS, ranges: true },
    requestHeaders: RANGE_HEADERS,
    errors: { 401: ['LINK_PASSWORD_REQUIRED'], 404: ['LINK_NOT_FOUND', 'FILE_NOT_FOUND'], 410: ['LINK_EXPIRED'], 416: ['RANGE_NOT_SATISFIABLE'], 429: ['RATE_LIMITED'] },
  },
  'GET /api/upload/{link_token}/status': {
    tag: 'upload',
    summary: 'Uploader: the link\'s title and gates',
    params: { link_token: LINK_TOKEN },
    errors: { 404: ['LINK_INVALID'] },
  },
  'POST /api/upload/{link_token}/verify-password': {
    tag: 'upload',
    summary: 'Uploader: pass the link password gate (sets the grant cookie)',
    params: { link_token: LINK_TOKEN },
    errors: { 401: ['INCORRECT_LINK_PASSWORD'], 404: ['LINK_INVALID'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/upload/{link_token}/request-code': {
    tag: 'upload',
    summary: 'Uploader: mail a verification code to an address',
    params: { link_token: LINK_TOKEN },
    form: 'also',
    errors: { 400: ['EMAIL_NOT_REQUIRED'], 401: ['LINK_PASSWORD_REQUIRED'], 403: ['EMAIL_NOT_ALLOWED'], 404: ['LINK_INVALID'], 429: ['RATE_LIMITED'] },
  },
  'POST /api/upload/{link_token}/verify-code': {
    tag: 'upload',
    summary: 'Uploader: pass the e-mail gate with the mailed code (sets the grant cookie)',
    params: { link_token: LINK_TOKEN },
    errors: { 400: ['INVALID_CODE', 'EMAIL_NOT_REQUIRED'], 401: ['LINK_PASSWORD_REQUIRED'], 403: ['EMAIL_NOT_ALLOWED'], 404: ['LINK_INVALID'], 429: ['RATE_LIMITED'] },
  },
  'GET /api/upload/{link_token}/public-key': {
    tag: 'upload',
    summary: 'Uploader: the public key (SPKI) to wrap file keys with: a team folder\'s current epoch key with key_epoch, or the owner\'s key with key_epoch null',
    params: { link_token: LINK_TOKEN },
    errors: { 404: ['LINK_INVALID', 'PUBLIC_KEY_MISSING'] },
  },
  'POST /api/upload/{link_token}': {
    tag: 'upload',
    summary: 'Uploader: send encrypted files in one multipart request',
    params: { link_token: LINK_TOKEN },
    multipart: true,
    gates: true,
    errors: {
      400: ['ARRAY_LENGTH_MISMATCH', 'MALFORMED_MULTIPART', 'NOT_MULTIPART', 'NO_FILES'],
      404: ['LINK_INVALID'],
      409: ['FOLDER_KEY_CHANGED'],
      413: ['FILE_TOO_LARGE', 'FOLDER_QUOTA_EXCEEDED', 'PAYLOAD_TOO_LARGE'],
      429: ['RATE_LIMITED'],
      507: ['STORAGE_FULL'],
    },
  },
  'POST /api/upload/{link_token}/complete': {
    tag: 'upload',
    summary: 'Uploader: turn finished tus uploads into files',
    params: { link_token: LINK_TOKEN },
    gates: true,
    errors: { 404: ['LINK_INVALID'] },
  },
  'POST /api/upload/{link_token}/tus': {
    tag: 'tus',
    summary: 'tus: create an upload (Upload-Length, Upload-Metadata); may carry the first bytes',
    params: { link_token: LINK_TOKEN },
    gates: true,
    tus: {
      requestHeaders: [
        TUS_RESUMABLE,
        { name: 'upload-length', description: 'The ciphertext length in bytes (deferred length is refused).', required: true },
        { name: 'upload-metadata', description: 'base64 values: filename (required), relativePath, encryptedKey, iv, plainSize, key_epoch (a team folder\'s current epoch; absent for a personal folder).', required: true },
      ],
      body: 'optional',
      responses: {
        201: { description: 'Created; `Location` names the upload.', headers: { location: '/api/upload/{link_token}/tus/{upload_id}', 'upload-offset': 'Bytes stored (creation-with-upload).' } },
        400: { description: `A metadata value is invalid, or Upload-Length is not the encrypted length of plainSize. ${TUS_TEXT_ERRORS}` },
        409: { description: `key_epoch is not the folder's current key epoch (JSON body {detail, code: FOLDER_KEY_CHANGED}): fetch the public key again. ${TUS_TEXT_ERRORS}` },
        413: { description: `plainSize or Upload-Length is over the file size limit, or the folder's storage or file limit leaves no room for it (JSON body {detail, code: FOLDER_QUOTA_EXCEEDED}). ${TUS_TEXT_ERRORS}` },
        507: { description: `The disk store's free-space reserve leaves no room for Upload-Length (JSON body {detail, code: STORAGE_FULL}). ${TUS_TEXT_ERRORS}` },
      },
    },
    errors: { 404: ['LINK_INVALID'] },
  },
  'OPTIONS /api/upload/{link_token}/tus': {
    tag: 'tus',
    summary: 'tus: the server\'s version and extensions',
    params: { link_token: LINK_TOKEN },
    tus: { requestHeaders: [], responses: { 204: { description: 'Tus-Version, Tus-Extension, Tus-Max-Size.', headers: { 'tus-version': '1.0.0', 'tus-extension': 'creation,creation-with-upload,termination' } } } },
    errors: { 404: ['LINK_INVALID'] },
  },
  'HEAD /api/upload/{link_token}/tus/{upload_id}': {
    tag: 'tus',
    summary: 'tus: how many bytes are stored (resume from Upload-Offset)',
    params: { link_token: LINK_TOKEN, upload_id: 'The upload id from Location (32 hex digits).' },
    gates: true,
    tus: {
      requestHeaders: [TUS_RESUMABLE],
      responses: {
        200: { description: 'The upload\'s state.', headers: { 'upload-offset': 'Bytes stored so far.', 'upload-length': 'The ciphertext length.', 'upload-metadata': 'As created.' } },
        404: { description: 'Another link\'s, completed, cancelled or swept upload (no body: HEAD).' },
      },
    },
    errors: { 404: ['LINK_INVALID'] },
  },
  'PATCH /api/upload/{link_token}/tus/{upload_id}': {
    tag: 'tus',
    summary: 'tus: send bytes from Upload-Offset',
    params: { link_token: LINK_TOKEN, upload_id: 'The upload id from Location (32 hex digits).' },
    gates: true,
    tus: {
      requestHeaders: [TUS_RESUMABLE, { name: 'upload-offset', description: 'Where these bytes start (the stored offset).', required: true }],
      body: 'required',
      responses: {
        204: { description: 'Stored.', headers: { 'upload-offset': 'The new offset.' } },
        404: { description: `Another link's, completed, cancelled or swept upload. ${TUS_TEXT_ERRORS}` },
        409: { description: `Upload-Offset is not the stored offset. ${TUS_TEXT_ERRORS}` },
        413: { description: `Bytes beyond Upload-Length. ${TUS_TEXT_ERRORS}` },
        507: { description: `The disk store's free-space reserve was reached (the bytes before it are kept: resume from HEAD's offset once space is back; JSON body {detail, code: STORAGE_FULL}). ${TUS_TEXT_ERRORS}` },
      },
    },
    errors: { 404: ['LINK_INVALID'] },
  },
  'DELETE /api/upload/{link_token}/tus/{upload_id}': {
    tag: 'tus',
    summary: 'tus: cancel an upload (bytes and session removed)',
    params: { link_token: LINK_TOKEN, upload_id: 'The upload id from Location (32 hex digits).' },
    gates: true,
    tus: {
      requestHeaders: [TUS_RESUMABLE],
      responses: { 204: { description: 'Cancelled.' }, 404: { description: `Unknown upload. ${TUS_TEXT_ERRORS}` } },
    },
    errors: { 404: ['LINK_INVALID'] },
  },
  'OPTIONS /api/upload/{link_token}/tus/{upload_id}': {
    tag: 'tus',
    summary: 'tus: the server\'s version and extensions',
    params: { link_token: LINK_TOKEN, upload_id: 'The upload id from Location (32 hex digits).' },
    tus: { requestHeaders: [], responses: { 204: { description: 'Tus-Version, Tus-Extension, Tus-Max-Size.' } } },
    errors: { 404: ['LINK_INVALID'] },
  },
  'POST /api/bench/discard': {
    tag: 'bench',
    summary: 'Benchmarks only (BENCH_DISCARD_ROUTE): read a body and throw it away',
    binaryRequest: 'application/octet-stream',
    errors: { 413: ['PAYLOAD_TOO_LARGE'] },
  },
  'GET /api/storage': { tag: 'storage', summary: 'What the admin\'s folders hold together, the disk store\'s free space, and the defaults of new folders' },
  'GET /api/activity': { tag: 'activity', summary: 'The account\'s activity log, newest first, filtered and paged' },
  'GET /api/activity/export': {
    tag: 'activity',
    summary: 'Every matching activity entry as a CSV or JSON file, with the signed checkpoint of the newest entry',
    binary: { mediaType: ['text/csv', 'application/json'], headers: { 'content-disposition': 'attachment; `sealdrop-activity-<date>.csv` or `.json`.' } },
  },
  'GET /api/activity/verify': { tag: 'activity', summary: 'Check the activity log\'s hash chain' },
  'GET /api/openapi.json': { tag: 'meta', summary: 'This document (OpenAPI 3.1)', rawResponse: 'application/json' },
  'GET /api/docs': { tag: 'meta', summary: 'The API reference page (HTML)', rawResponse: 'text/html' },
  'GET /api/docs/{asset}': {
    tag: 'meta',
    summary: 'A file of the reference page (swagger-ui.css, swagger-ui-bundle.js, start.js)',
    rawResponse: '*/*',
    errors: { 404: ['NOT_FOUND'] },
  },
};
