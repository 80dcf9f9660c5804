// Row types of every table, as Kysely sees them. Times are epoch milliseconds (integer in SQLite,
// bigint in PostgreSQL, read back as numbers) and flags are 0/1 integers, so the same queries run
// unchanged on both dialects. Repositories convert rows to the shapes the rest of the server uses.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  /** argon2id PHC string. */
  password_hash: string;
  /** Base32 TOTP secret: pending while is_2fa_enabled is 0, active once it is 1. */
  totp_secret: string | null;
  is_2fa_enabled: number;
  public_key_spki: string | null;
  encrypted_private_key: string | null;
  kdf_salt: string | null;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: number;
  created_at: number;
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
}

export interface DownloadLinkFilesTable {
  link_id: number;
  file_id: number;
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
}

/** Who does a one-process-at-a-time task (the upload sweep) until when. */
export interface TaskLeasesTable {
  task: string;
  holder: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  totp_used_steps: TotpUsedStepsTable;
  failure_counters: FailureCountersTable;
  pending_logins: PendingLoginsTable;
  folders: FoldersTable;
  files: FilesTable;
  download_links: DownloadLinksTable;
  download_link_files: DownloadLinkFilesTable;
  download_link_grants: DownloadLinkGrantsTable;
  upload_grants: UploadGrantsTable;
  verification_codes: VerificationCodesTable;
  upload_sessions: UploadSessionsTable;
  task_leases: TaskLeasesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type FileRow = Selectable<FilesTable>;
export type DownloadLinkRow = Selectable<DownloadLinksTable>;
export type UploadGrantRow = Selectable<UploadGrantsTable>;
export type VerificationCodeRow = Selectable<VerificationCodesTable>;
export type UploadSessionRow = Selectable<UploadSessionsTable>;
