// The key backup file of spec section 3: JSON with description, username, encryptedPrivateKey,
// kdfSalt and backupDate, named private-key-backup-{username}-{YYYY-MM-DD}.json. It holds the
// private key only as the server stores it (wrapped under the login password at backup time), so
// the file alone opens nothing; restore checks of spec section 5 live here too.

import { t } from '../../i18n/language.ts';
import { KEY_MESSAGES } from '../../lib/userTexts.ts';
import { KEYS_UI } from './messages.ts';

export interface KeyData {
  encryptedPrivateKey: string;
  kdfSalt: string;
}

export interface KeyBackupFile extends KeyData {
  description: string;
  username: string;
  /** ISO 8601 timestamp. */
  backupDate: string;
}

export const BACKUP_MIME_TYPE = 'application/json';

/**
 * The file's "description" line, for the person who finds the file later, in the language of the
 * page that saved it. Only a person reads it: restore ignores it (the JSON keys stay as they are).
 */
export const backupDescription = () => t(KEYS_UI.backupDescription);

/** Letters, digits, underscore and hyphen stay; anything else becomes an underscore. */
export function sanitiseUsernameForFile(username: string): string {
  return username.replace(/[^A-Za-z0-9_-]/g, '_');
}

function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** e.g. private-key-backup-alice_smith-2030-01-31.json (the date is the user's local date). */
export function backupFileName(username: string, date: Date): string {
  return `private-key-backup-${sanitiseUsernameForFile(username)}-${localDate(date)}.json`;
}

export function buildBackupFile(username: string, keyData: KeyData, date: Date): KeyBackupFile {
  return {
    description: backupDescription(),
    username,
    encryptedPrivateKey: keyData.encryptedPrivateKey,
    kdfSalt: keyData.kdfSalt,
    backupDate: date.toISOString(),
  };
}

export function serialiseBackupFile(backup: KeyBackupFile): string {
  return `${JSON.stringify(backup, null, 2)}\n`;
}

export type BackupFileCheck =
  | { ok: true; keyData: KeyData; username: string | null }
  | { ok: false; message: string };

/** The file chosen for restore must be the JSON the app wrote (browsers derive the type from .json). */
export function backupFileTypeError(file: { type: string }): string | null {
  return file.type === BACKUP_MIME_TYPE ? null : KEY_MESSAGES.restoreFileType;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** Parses a backup file's text; the messages are the spec's restore texts. */
export function parseBackupFile(text: string): BackupFileCheck {
  if (text.trim() === '') return { ok: false, message: KEY_MESSAGES.restoreReadEmpty };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: KEY_MESSAGES.restoreParse };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: KEY_MESSAGES.restoreStructure };
  }
  const { encryptedPrivateKey, kdfSalt, username } = parsed as Record<string, unknown>;
  if (!nonEmptyString(encryptedPrivateKey) || !nonEmptyString(kdfSalt)) {
    return { ok: false, message: KEY_MESSAGES.restoreStructure };
  }
  return {
    ok: true,
    keyData: { encryptedPrivateKey: encryptedPrivateKey.trim(), kdfSalt: kdfSalt.trim() },
    username: typeof username === 'string' ? username : null,
  };
}

/** Usernames are one account regardless of letter case (docs/api.md). A backup without a name asks too. */
export function isUsernameMismatch(backupUsername: string | null, currentUsername: string): boolean {
  return backupUsername === null || backupUsername.toLowerCase() !== currentUsername.toLowerCase();
}
