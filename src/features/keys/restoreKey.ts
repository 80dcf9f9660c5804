// Restore from a backup file (spec section 4: select file, verify password, parse, optional
// username-mismatch confirmation, save key data; section 5 for every check and message).
//
// A backup holds only the wrapped private key, so restoring also re-derives its public key (in the
// worker) and uploads it: the server then again pairs the public key uploaders encrypt for with the
// private key it stores. The backup must open with a password: normally the current login password
// (which is verified with the server first, as its authentication secret). A backup made before the
// last password change opens only with the password of that time; then the caller asks for it (code
// 'restore-wrong-backup-password'). Unless the backup already is wrapped under the current password
// and the account's own parameter block, the key is re-wrapped under them (scheme 2), so that
// unlocking keeps working with the password the admin signs in with, and old scheme-1 backups come
// back under the new scheme.

import { describeApiError } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';
import { isCryptoError } from '../../../crypto/index.ts';
import { backupFileTypeError, isUsernameMismatch, parseBackupFile, type KeyData } from './backupFile.ts';
import { KEY_MESSAGES, restoreFailedMessage } from '../../lib/userTexts.ts';
import { KeyError, keyOperationFailureText } from './keyError.ts';
import type { KeyPool } from './keyPool.ts';

export interface RestoreInput {
  file: File | null;
  /** The current login password. */
  password: string;
  /** The login password at backup time, when it differs from the current one. */
  backupPassword?: string;
  /** The signed-in username. */
  username: string;
}

export interface RestoreDependencies {
  /** Checks the current login password with the server; resolves with the account's KDF parameter block. */
  verifyPassword(password: string): Promise<string>;
  confirmUsernameMismatch(backupUsername: string | null): Promise<boolean>;
  /** The app's crypto pool: derives the backup's public key and re-wraps it when needed. */
  pool: Pick<KeyPool, 'publicKeyOfWrappedPrivateKey' | 'rewrapPrivateKey'>;
  setPublicKey(publicKeySpki: string): Promise<User>;
  saveEncryptedKey(data: KeyData): Promise<User>;
}

const invalid = (message: string) => new KeyError('restore-invalid', message);
const describe = (error: unknown) => describeApiError(error).message;

async function readBackupText(file: File): Promise<string> {
  let text: unknown;
  try {
    text = await file.text();
  } catch {
    throw invalid(KEY_MESSAGES.restoreReadError);
  }
  if (typeof text !== 'string') throw invalid(KEY_MESSAGES.restoreReadEmpty);
  return text;
}

/** The key data to store: the backup as it is, or re-wrapped under the current password and the account's block. */
async function openBackup(
  keyData: KeyData,
  input: RestoreInput,
  accountKdfParams: string,
  pool: RestoreDependencies['pool'],
): Promise<{ publicKeySpki: string; keyData: KeyData }> {
  const openingPassword = input.backupPassword || input.password;
  let publicKeySpki: string;
  try {
    publicKeySpki = await pool.publicKeyOfWrappedPrivateKey(keyData, openingPassword);
  } catch (error) {
    if (isCryptoError(error, 'WRONG_PASSWORD')) {
      if (!input.backupPassword) throw new KeyError('restore-wrong-backup-password', KEY_MESSAGES.backupPasswordNeeded);
      throw new KeyError('restore-wrong-backup-password', restoreFailedMessage(KEY_MESSAGES.decryptionFailed));
    }
    throw new KeyError('restore-failed', restoreFailedMessage(keyOperationFailureText(error, describe)));
  }
  if (openingPassword === input.password && keyData.kdfSalt === accountKdfParams) return { publicKeySpki, keyData };
  try {
    const { encryptedPrivateKey, kdfSalt } = await pool.rewrapPrivateKey(keyData, openingPassword, input.password, accountKdfParams);
    return { publicKeySpki, keyData: { encryptedPrivateKey, kdfSalt } };
  } catch (error) {
    throw new KeyError('restore-failed', restoreFailedMessage(keyOperationFailureText(error, describe)));
  }
}

/** Runs the whole restore; resolves with the updated user. Every failure is a KeyError. */
export async function restoreKeyFromBackup(input: RestoreInput, deps: RestoreDependencies): Promise<User> {
  if (!input.file) throw invalid(KEY_MESSAGES.restoreFileRequired);
  if (!input.password) throw invalid(KEY_MESSAGES.restorePasswordRequired);
  const typeError = backupFileTypeError(input.file);
  if (typeError) throw invalid(typeError);

  let accountKdfParams: string;
  try {
    accountKdfParams = await deps.verifyPassword(input.password);
  } catch (error) {
    const described = describeApiError(error);
    throw invalid(described.code === 'wrong-password' ? KEY_MESSAGES.restorePasswordVerification : described.message);
  }

  const parsed = parseBackupFile(await readBackupText(input.file));
  if (!parsed.ok) throw invalid(parsed.message);
  if (isUsernameMismatch(parsed.username, input.username) && !(await deps.confirmUsernameMismatch(parsed.username))) {
    throw new KeyError('cancelled', KEY_MESSAGES.restoreUsernameCancelled);
  }

  const opened = await openBackup(parsed.keyData, input, accountKdfParams, deps.pool);
  try {
    // Public key first: a new public key drops the old pair's wrapped key on the server (docs/api.md).
    await deps.setPublicKey(opened.publicKeySpki);
    return await deps.saveEncryptedKey(opened.keyData);
  } catch (error) {
    throw new KeyError('restore-failed', restoreFailedMessage(describe(error)));
  }
}
