// Shapes of the auth and profile API (docs/api.md). Only what the browser reads is typed.

export interface User {
  id: number;
  username: string;
  email: string | null;
  is_2fa_enabled: boolean;
  public_key_spki: string | null;
}

export interface LoginRequest {
  username: string;
  password: string;
}

/** POST /auth/token and /auth/token/2fa answer one of these; anything else is unexpected. */
export type LoginResponse = { user: User } | { message: string; username: string };

export interface OtpLoginRequest {
  username: string;
  code: string;
}

export interface ProfileUpdateRequest {
  current_password: string;
  username?: string;
  email?: string | null;
}

export interface TwoFactorSetupResponse {
  secret: string;
  otp_uri: string;
}

export interface ChangePasswordRequest {
  old_password: string;
  new_password: string;
}

export interface DetailResponse {
  detail: string;
}

// Folders (docs/api.md "Folders").

export type FolderSortKey = 'title' | 'creation_date' | 'expiration_date' | 'last_upload_time';
export type SortOrder = 'asc' | 'desc';

export interface FolderListParams {
  sort_by: FolderSortKey;
  sort_order: SortOrder;
}

export interface Folder {
  id: number;
  title: string;
  description: string | null;
  /** ISO 8601 times. */
  creation_date: string;
  expiration_date: string | null;
  last_upload_time: string | null;
  is_active: boolean;
  has_password: boolean;
  require_email_verification: boolean;
  /** null: any verified e-mail address may upload. */
  allowed_emails: string[] | null;
  perform_mime_check: boolean;
  link_token: string;
  has_undownloaded_files: boolean;
}

/** The create/update payload of spec section 3 (built by features/folders/folderPayload.ts). */
export interface FolderPayload {
  title: string;
  description: string;
  require_email_verification: boolean;
  allowed_emails: string[] | null;
  perform_mime_check: boolean;
  expires_in_days?: number;
  expiration_date?: string | null;
  /** Sent only when the password option is on; '' removes the password. */
  link_password?: string;
  /** Update only. */
  is_active?: boolean;
}

export interface FolderUpdateRequest {
  id: number;
  payload: FolderPayload;
}

// Keys (docs/api.md "Keys").

export interface PublicKeyResponse {
  public_key_spki: string;
}

/** The private key wrapped under the login password, as the server stores it. Never log it. */
export interface EncryptedKeyData {
  encryptedPrivateKey: string;
  kdfSalt: string;
}

// Anonymous upload (docs/api.md "Upload (anonymous)").

/** GET /upload/{link_token}/status. */
export interface UploadLinkStatus {
  title: string;
  description: string | null;
  requires_password: boolean;
  requires_email: boolean;
  has_allowed_emails_list: boolean;
  /** Beyond the spec's shape: whether the page checks content signatures before encrypting. */
  perform_mime_check: boolean;
}

export interface UploadResultItem {
  /** The stored name. */
  filename: string;
  /** The name exactly as the client sent it (a multipart filename's quote arrives as %22). */
  original_raw_name_from_client: string;
  path: string;
  /** Plaintext bytes. */
  size: number;
  /** Items of the complete route only. */
  upload_id?: string;
}

export interface UploadSuccessItem extends UploadResultItem {
  id: number;
}

export interface UploadFailureItem extends UploadResultItem {
  error: string;
}

/** The answer of both transports (multipart POST and tus complete). */
export interface UploadResult {
  successful_files: UploadSuccessItem[];
  failed_files: UploadFailureItem[];
}

export interface VerifiedResponse {
  verified: true;
}

export interface MessageResponse {
  message: string;
}
