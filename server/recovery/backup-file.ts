// The private key backup file (src/features/keys/backupFile.ts: JSON with description, username,
// encryptedPrivateKey, kdfSalt, backupDate), read and unlocked with the password it was made under.
// The unlocked key stays in this process's memory only.
import type { KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { OfflineCryptoError, unwrapPrivateKey, type StoredKeyData } from '../crypto/index.ts';
import { errnoCode, ExportError } from './errors.ts';

const MAX_BACKUP_BYTES = 1024 * 1024;

const BackupFileSchema = z.looseObject({
  encryptedPrivateKey: z.string().trim().min(1),
  kdfSalt: z.string().trim().min(1),
  username: z.string().optional(),
  backupDate: z.string().optional(),
});

export interface KeyBackup {
  keyData: StoredKeyData;
  username: string | undefined;
  backupDate: string | undefined;
}

export async function readKeyBackup(file: string): Promise<KeyBackup> {
  let text: string;
  try {
    if ((await stat(file)).size > MAX_BACKUP_BYTES) throw new ExportError('BACKUP_UNREADABLE', `${file} is too large to be a key backup file`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError('BACKUP_UNREADABLE', `cannot read the backup file ${file} (${errnoCode(error) ?? 'error'})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ExportError('BACKUP_UNREADABLE', `${file} is not a key backup file (not JSON)`, { cause: error });
  }
  const parsed = BackupFileSchema.safeParse(json);
  if (!parsed.success) throw new ExportError('BACKUP_UNREADABLE', `${file} is not a key backup file (no encryptedPrivateKey and kdfSalt)`);
  const { encryptedPrivateKey, kdfSalt, username, backupDate } = parsed.data;
  return { keyData: { encryptedPrivateKey, kdfSalt }, username, backupDate };
}

/**
 * The private key, or OfflineCryptoError WRONG_PASSWORD. A backup whose key data cannot be parsed
 * (MALFORMED, or an unknown KDF scheme) is an unreadable backup, not a wrong password.
 */
export function unlockKeyBackup(backup: KeyBackup, password: string): KeyObject {
  try {
    return unwrapPrivateKey(backup.keyData, password);
  } catch (error) {
    if (error instanceof OfflineCryptoError && error.code === 'WRONG_PASSWORD') throw error;
    const detail = error instanceof OfflineCryptoError ? error.code : 'not a private key';
    throw new ExportError('BACKUP_UNREADABLE', `the backup file's key data is damaged (${detail})`, { cause: error });
  }
}
