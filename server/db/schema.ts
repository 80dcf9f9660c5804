// Row types of every table, as Kysely sees them. Times are epoch milliseconds (integer in SQLite,
// bigint in PostgreSQL, read back as numbers) and flags are 0/1 integers, so the same queries run
// unchanged on both dialects. Repositories convert rows to the shapes the rest of the server uses.
import type { Generated, Selectable } from 'kysely';
import type { NotifyMode } from '../../contract/notifications.ts';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  /**
   * argon2id PHC string: of the authentication secret the browser derives (kdf_params set), or of
   * the password itself for an account not yet upgraded (kdf_params NULL).
   */
  password_hash: string;
  /** Base32 TOTP secret: pending while is_2fa_enabled is 0, active once it is 1. */
  totp_secret: string | null;
  is_2fa_enabled: number;
  public_key_spki: string | null;
  encrypted_private_key: string | null;
  kdf_salt: string | null;
  created_at: number;
  /** base64 of the account's scheme-2 KDF parameter block (docs/format.md); NULL: not yet upgraded. */
  kdf_params: string | null;
  /** 'admin' or 'member' (contract/organisation.ts, OrgRole). */
  org_role: Generated<string>;
  /** When an organisation admin disabled the account; NULL: active. */
  disabled_at: number | null;
  display_name: string | null;
  /** The language chosen in the app (locales/languages.ts); NULL: never chosen. */
  language: string | null;
  /** When the invitation the account was made from was sent; NULL: made by the CLI. */
  invited_at: number | null;
  /** The private key wrapped under the account's recovery key (docs/format.md); NULL: none. */
  recovery_copy: string | null;
  /** The public key (SPKI, base64) of the key pair `recovery_copy` wraps. */
  recovery_for_spki: string | null;
  /** 0 for an account made by single sign-on: it has no password to sign in with. */
  password_sign_in: Generated<number>;
}

/** An invitation by e-mail to make an account (server/accounts/invitations.ts). */
export interface InvitationsTable {
  id: Generated<number>;
  email: string;
  display_name: string | null;
  org_role: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  invited_by: number | null;
  created_at: number;
  /** When the newest mail (and token) went out. */
  sent_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_user_id: number | null;
  revoked_at: number | null;
}

/** Secrets the server derives answers from, made by a migration (one row per name). */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** Server-wide facts that, once true, stay true (a row present means set). */
export interface ServerFlagsTable {
  name: string;
  set_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: number;
  created_at: number;
  /** When the session last proved the password or a passkey again (passkey changes need it recent). */
  reauthenticated_at: number | null;
  /** 1: started by single sign-on (bounded by SSO_SESSION_HOURS; sign-out ends the provider's too). */
  sso: Generated<number>;
}

/** Which account a provider's subject signs in as (docs/api.md "Single sign-on"). */
export interface SsoIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  issuer: string;
  subject: string;
  created_at: number;
  last_sign_in_at: number | null;
}

/** A browser trusted to unlock its account's private key (docs/format.md, the device copy). */
export interface TrustedDevicesTable {
  /** The browser's own random UUID. */
  id: string;
  user_id: number;
  name: string;
  wrapped_private_key: string;
  wrapped_for_spki: string;
  created_at: number;
  last_used_at: number | null;
}

/** A new device's request to be given the private key by another device of the account. */
export interface DeviceApprovalsTable {
  id: string;
  user_id: number;
  /** The requester's ECDH P-256 public key (SPKI, base64). */
  requester_spki: string;
  /** What the requesting browser calls itself ("Firefox on Linux"), shown to the approver. */
  requester_name: string;
  approver_spki: string | null;
  wrapped_private_key: string | null;
  created_at: number;
  expires_at: number;
  approved_at: number | null;
}

/** The organisation recovery key while the policy is on (docs/api.md "Organisation recovery"): one row at most. */
export interface OrgRecoveryKeysTable {
  /** Always 1. */
  slot: number;
  /** A random UUID naming this key pair. */
  key_id: string;
  /** ECDH P-256 public key (SPKI, base64). */
  public_key_spki: string;
  enabled_by: number | null;
  enabled_at: number;
}

/** An organisation admin's copy of the organisation private key, sealed to their account key. */
export interface OrgRecoveryAdminCopiesTable {
  user_id: number;
  key_id: string;
  /** The admin's account public key the copy is sealed to. */
  wrapped_for_spki: string;
  copy: string;
  granted_by: number | null;
  created_at: number;
}

/** A member's private key sealed to the organisation key. */
export interface OrgRecoveryMemberCopiesTable {
  user_id: number;
  key_id: string;
  /** The member's public key whose private half the copy holds. */
  wrapped_for_spki: string;
  copy: string;
  created_at: number;
}

/** A WebAuthn credential of an account (docs/api.md "Passkeys"). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url credential id, unique over the server. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  /** The authenticator's signature counter last seen (0 for authenticators that keep none). */
  counter: number;
  /** Comma-separated transports the browser reported (hints for allowCredentials). */
  transports: string;
  name: string;
  /** base64 IV || AES-GCM of the PKCS8 private key under the PRF-derived key; opaque here. */
  wrapped_private_key: string | null;
  /** The public key (SPKI) of the key pair that copy belongs to. */
  wrapped_for_spki: string | null;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge: single use, expiring. */
export interface PasskeyChallengesTable {
  /** SHA-256 (hex) of the base64url challenge. */
  challenge_hash: string;
  purpose: string;
  /** The signed-in user (register, reauth); null for a sign-in. */
  user_id: number | null;
  /** SHA-256 of the csrftoken cookie of the browser that asked (sign-in). */
  browser_hash: string | null;
  expires_at: number;
  used_at: number | null;
}

export interface TotpUsedStepsTable {
  user_id: number;
  /** RFC 6238 time step (unix seconds / 30) of a code that was accepted. */
  step: number;
  used_at: number;
}

export interface FailureCountersTable {
  /** e.g. "login:account:alice" or "login:ip:127.0.0.1". */
  key: string;
  failures: number;
  reset_at: number;
}

export interface PendingLoginsTable {
  user_id: number;
  /** SHA-256 of the browser's csrftoken cookie at the password step: the code step must come from it. */
  browser_hash: string;
  expires_at: number;
}

/** An admin's upload folder. `owner_id` scopes every query: an admin sees only their own. */
export interface FoldersTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  description: string | null;
  /** The upload link's secret path segment: 256 random bits, base64url. */
  link_token: string;
  /** argon2id PHC string of the upload link password; null when the link has none. */
  link_password_hash: string | null;
  require_email_verification: number;
  /** JSON array of e-mail addresses; null when any verified address may upload. */
  allowed_emails: string | null;
  perform_mime_check: number;
  is_active: number;
  expiration_date: number | null;
  creation_date: number;
  /** Files are deleted this many days after upload (by the sweep); null: kept until deleted. */
  retention_days: number | null;
}

/**
 * A folder's limits and what it holds against them: its files, its unfinished uploads and the
 * claims of multipart requests still streaming (plaintext bytes for files and uploads, the bytes
 * received so far for a claim). Usage changes only by the updates of repositories/folder-usage.ts.
 */
export interface FolderQuotasTable {
  folder_id: number;
  /** Plaintext bytes its files and unfinished uploads may hold; null: no limit. */
  max_bytes: number | null;
  /** Files and unfinished uploads it may hold; null: no limit. */
  max_files: number | null;
  used_bytes: number;
  used_files: number;
}

/** What a multipart request took from its folder's usage while its body streams. */
export interface StorageClaimsTable {
  id: string;
  folder_id: number;
  bytes: number;
  files: number;
  /** Given back by the sweep after this (the request died). */
  expires_at: number;
}

/** One uploaded (encrypted) file; its ciphertext is the blob `blob_key` in the blob store. */
export interface FilesTable {
  id: Generated<number>;
  folder_id: number;
  original_filename: string;
  stored_filename: string;
  /** Directory of the file inside the uploaded tree, '.' for the root. */
  relative_path: string;
  /** Plaintext size in bytes. */
  file_size: number;
  /** SHA-256 hex of the plaintext, computed by the uploader's browser. */
  file_hash: string;
  /** The file's AES key wrapped with the admin's public key (base64). */
  encrypted_key: string;
  encryption_iv: string;
  blob_key: string;
  upload_time: number;
  /** When the admin last downloaded the file; null means never. */
  last_downloaded_admin: number | null;
  /** The team folder's key epoch encrypted_key is sealed to; null: the owner's account key. */
  key_epoch: number | null;
}

/** A share of some files of one folder with an outside recipient. */
export interface DownloadLinksTable {
  id: Generated<number>;
  /** The link's secret path segment: 256 random bits, base64url. */
  link_token: string;
  folder_id: number;
  owner_id: number;
  /**
   * argon2id PHC string of the password verifier the browser derives from the link password (not
   * the password itself, and not the key that unwraps the file keys); null for a link without password.
   */
  verifier_hash: string | null;
  /** JSON object: file id -> 'wrappedKey:ivPlusCiphertext'; null for a link without password. */
  reencrypted_keys_json: string | null;
  expiration_date: number | null;
  creation_date: number;
  /** Fetches allowed per file (counted once per recipient); null: no limit. */
  max_downloads: number | null;
}

export interface DownloadLinkFilesTable {
  link_id: number;
  file_id: number;
  /** Recipients counted for this file of this link (see download_link_fetches). */
  download_count: Generated<number>;
  last_download_at: number | null;
}

/**
 * A recipient (signed cookie token, stored as SHA-256 hex) of a file of a link: the ciphertext
 * ranges sent to it so far, and when its download was counted (null: not yet).
 */
export interface DownloadLinkFetchesTable {
  link_id: number;
  file_id: number;
  recipient_hash: string;
  fetched_at: number;
  /** JSON [[start, end), ...]: merged byte ranges sent; null once counted. */
  served_ranges: string | null;
  counted_at: number | null;
}

/** A folder's upload-notification choice; a folder without a row notifies of each upload session. */
export interface FolderNotificationSettingsTable {
  folder_id: number;
  mode: NotifyMode;
  include_file_names: number;
}

/** Files stored through a folder's upload link in one request, waiting to be told to the admin. */
export interface UploadEventsTable {
  id: Generated<number>;
  folder_id: number;
  created_at: number;
  file_ids_json: string;
  file_count: number;
  total_bytes: number;
  /** The verified uploader address, when the folder verifies e-mail. */
  uploader_email: string | null;
  /** No longer read: written as ''. Older rows hold the origin an upload came to (a request's Host). */
  origin: string;
  notified_at: number | null;
  attempts: Generated<number>;
  next_attempt_at: Generated<number>;
}

/** An admin's webhook endpoint; the signing secret is derived, never stored (server/webhooks). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  secret_nonce: string;
  created_at: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event queued for an endpoint, and how delivering it went. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  /** The event's id, also in the payload: receivers de-duplicate retried deliveries by it. */
  event_id: string;
  event_type: string;
  /** The exact JSON body that is signed and sent. */
  payload: string;
  created_at: number;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  /** A process delivering it holds it until then (a process that died frees it). */
  claimed_until: number | null;
  last_status_code: number | null;
  last_error: string | null;
  completed_at: number | null;
}

/** One entry of an account's activity log, chained to the previous one by `prev_hash`. */
export interface ActivityLogTable {
  id: Generated<number>;
  user_id: number;
  /** 1, 2, 3 ... per account, without gaps (a gap is a removed entry). */
  seq: number;
  at: number;
  kind: string;
  folder_id: number | null;
  /** Canonical JSON of the entry's facts. */
  details: string;
  /** HMAC-SHA256 of the client's IP under a server key: comparable, not reversible. */
  ip_hash: string | null;
  prev_hash: string;
  hash: string;
}

/** A folder whose expiry has been announced once (webhook and activity log). */
export interface FolderExpiryEventsTable {
  folder_id: number;
  expired_at: number;
  announced_at: number;
}

/** A browser that passed a link's password check (its cookie token is stored as SHA-256 hex). */
export interface DownloadLinkGrantsTable {
  token_hash: string;
  link_id: number;
  expires_at: number;
}

/** Proof that a browser passed an upload link's gates; the cookie token is stored as SHA-256 hex. */
export interface UploadGrantsTable {
  id: Generated<number>;
  token_hash: string;
  folder_id: number;
  /** SHA-256 of the folder's link_password_hash when the password was passed; null when it was not. */
  password_digest: string | null;
  /** Verified uploader address (lower-cased); null when no code was verified. */
  email: string | null;
  expires_at: number;
  created_at: number;
}

/** An e-mail verification code of an upload link (HMAC-SHA256 of the code under `salt`). */
export interface VerificationCodesTable {
  id: Generated<number>;
  folder_id: number;
  email: string;
  code_hash: string;
  salt: string;
  attempts: number;
  expires_at: number;
  /** When it was verified (it is then used up); null while pending. */
  verified_at: number | null;
  created_at: number;
}

/** A resumable (tus) upload; its bytes are the blob "uploads/<id>" until it completes. */
export interface UploadSessionsTable {
  id: string;
  folder_id: number;
  uploader_email: string | null;
  filename: string;
  relative_path: string;
  encrypted_key: string;
  encryption_iv: string;
  plain_size: number;
  /** Ciphertext length (tus Upload-Length). */
  upload_length: number;
  /** JSON object of the tus Upload-Metadata pairs. */
  metadata: string;
  created_at: number;
  last_activity_at: number;
  finished_at: number | null;
  /** The team folder's key epoch encrypted_key is sealed to; null: the owner's account key. */
  key_epoch: number | null;
}

/** One signed version of a team folder's member list (docs/team-folders.md, "Manifest"). */
export interface FolderManifestsTable {
  folder_id: number;
  seq: number;
  /** base64 of the manifest's exact bytes. */
  manifest: string;
  /** base64 RSA-PSS signature. */
  signature: string;
  /** SHA-256 hex of the manifest bytes (the next version's prev). */
  hash: string;
  signer_id: number | null;
  /** base64 SPKI of the signer's account key when the version was stored. */
  signer_public_key_spki: string;
  created_at: number;
}

/** The public key of one epoch of a team folder. */
export interface FolderKeyEpochsTable {
  folder_id: number;
  epoch: number;
  public_key_spki: string;
  created_at: number;
}

/** One epoch's private key sealed to one member (an envelope, opaque to the server). */
export interface FolderEpochKeysTable {
  folder_id: number;
  epoch: number;
  user_id: number;
  envelope: string;
}

/** A member of a team folder as the latest manifest lists it. */
export interface FolderMembersTable {
  folder_id: number;
  user_id: number;
  /** 'owner', 'manager' or 'reader' (contract/team-folders.ts, TeamRole). */
  role: string;
  /** 1: this member receives the folder's upload notifications. */
  notify: number;
}

/** Who does a one-process-at-a-time task (the upload sweep) until when. */
/** Room above the disk store's reserve granted to a writer and not yet written (migration 0018). */
export interface DiskSpaceClaimsTable {
  id: string;
  bytes: number;
  /** On the real clock; a writer renews it while it writes. */
  expires_at: number;
}

/** One row (id 1): updated first by every grant of disk space, so grants take turns. */
export interface DiskSpaceTurnTable {
  id: number;
  turn: number;
}

export interface TaskLeasesTable {
  task: string;
  holder: string;
  expires_at: number;
}

export interface UploadBatchesTable {
  folder_id: number;
  idempotency_key: string;
  /** The JSON answer (an Upload result) of the request that recorded the key. */
  result: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  invitations: InvitationsTable;
  server_secrets: ServerSecretsTable;
  server_flags: ServerFlagsTable;
  sessions: SessionsTable;
  totp_used_steps: TotpUsedStepsTable;
  failure_counters: FailureCountersTable;
  pending_logins: PendingLoginsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  sso_identities: SsoIdentitiesTable;
  trusted_devices: TrustedDevicesTable;
  device_approvals: DeviceApprovalsTable;
  org_recovery_keys: OrgRecoveryKeysTable;
  org_recovery_admin_copies: OrgRecoveryAdminCopiesTable;
  org_recovery_member_copies: OrgRecoveryMemberCopiesTable;
  folders: FoldersTable;
  files: FilesTable;
  download_links: DownloadLinksTable;
  download_link_files: DownloadLinkFilesTable;
  download_link_grants: DownloadLinkGrantsTable;
  download_link_fetches: DownloadLinkFetchesTable;
  folder_notification_settings: FolderNotificationSettingsTable;
  upload_events: UploadEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  activity_log: ActivityLogTable;
  folder_expiry_events: FolderExpiryEventsTable;
  upload_grants: UploadGrantsTable;
  verification_codes: VerificationCodesTable;
  upload_sessions: UploadSessionsTable;
  task_leases: TaskLeasesTable;
  upload_batches: UploadBatchesTable;
  folder_quotas: FolderQuotasTable;
  storage_claims: StorageClaimsTable;
  disk_space_claims: DiskSpaceClaimsTable;
  disk_space_turn: DiskSpaceTurnTable;
  folder_manifests: FolderManifestsTable;
  folder_key_epochs: FolderKeyEpochsTable;
  folder_epoch_keys: FolderEpochKeysTable;
  folder_members: FolderMembersTable;
}

export type UserRow = Selectable<UsersTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type FileRow = Selectable<FilesTable>;
export type DownloadLinkRow = Selectable<DownloadLinksTable>;
export type UploadGrantRow = Selectable<UploadGrantsTable>;
export type VerificationCodeRow = Selectable<VerificationCodesTable>;
export type UploadSessionRow = Selectable<UploadSessionsTable>;
