// Which gates of an upload link a browser (or API client) has passed, and which it still lacks.
// The link password counts as passed only for the password the folder has now: the grant keeps a
// digest of the folder's password hash, so changing the password shuts out earlier grants.
import { sha256Hex } from '../auth/tokens.ts';
import type { UploadLinkFolder } from '../db/repositories/index.ts';
import type { UploadErrorCode } from './errors.ts';

export interface PassedGates {
  /** passwordDigest(folder) at the time the password was passed; null when it was not. */
  passwordDigest: string | null;
  /** The verified e-mail address (lower-cased); null when none was verified. */
  email: string | null;
}

export const NOTHING_PASSED: PassedGates = { passwordDigest: null, email: null };

export function passwordDigest(folder: UploadLinkFolder): string | null {
  return folder.linkPasswordHash === null ? null : sha256Hex(folder.linkPasswordHash);
}

export function requiresPassword(folder: UploadLinkFolder): boolean {
  return folder.linkPasswordHash !== null;
}

/** The allowed-address list applies only together with e-mail verification. */
export function allowedEmailList(folder: UploadLinkFolder): string[] | null {
  return folder.requireEmailVerification && folder.allowedEmails ? folder.allowedEmails : null;
}

export function emailAllowed(folder: UploadLinkFolder, email: string): boolean {
  const list = allowedEmailList(folder);
  return list === null || list.some((allowed) => allowed.trim().toLowerCase() === email);
}

export function passwordPassed(folder: UploadLinkFolder, passed: PassedGates): boolean {
  return !requiresPassword(folder) || passed.passwordDigest === passwordDigest(folder);
}

/** The first gate still closed, or null when the holder may upload. */
export function missingGate(folder: UploadLinkFolder, passed: PassedGates): UploadErrorCode | null {
  if (!passwordPassed(folder, passed)) return 'LINK_PASSWORD_REQUIRED';
  if (folder.requireEmailVerification) {
    if (passed.email === null) return 'EMAIL_VERIFICATION_REQUIRED';
    // Checked again at upload time: the admin may have narrowed the list since the code was sent.
    if (!emailAllowed(folder, passed.email)) return 'EMAIL_NOT_ALLOWED';
  }
  return null;
}
