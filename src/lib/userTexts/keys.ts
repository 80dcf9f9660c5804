// The keys feature's texts (spec sections 5 and 8, "Keys"), and the text of each crypto error code.
import type { CryptoErrorCode } from '../../../crypto/index.ts';
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  keyDataNotFound: { id: 'keys.error.keyDataNotFound', defaultMessage: 'Encrypted key data not found on server. Please generate or restore keys in your profile.' },
  missingPasswordOrKeyData: { id: 'keys.error.missingPasswordOrKeyData', defaultMessage: 'Missing password or key data.' },
  keyNotLoaded: { id: 'keys.error.keyNotLoaded', defaultMessage: 'Key not loaded.' },
  unlockPasswordRequired: { id: 'keys.unlock.passwordRequired', defaultMessage: 'Unlock requires a non-empty password.' },
  decryptionFailed: { id: 'keys.error.decryptionFailed', defaultMessage: 'Decryption failed: Incorrect password or corrupted data.' },
  generatePasswordRequired: { id: 'keys.generate.passwordRequired', defaultMessage: 'Password required to generate and encrypt keys.' },
  generationCancelled: { id: 'keys.generate.cancelled', defaultMessage: 'Key generation cancelled.' },
  restoreFileRequired: { id: 'keys.restore.fileRequired', defaultMessage: 'Please select your .json backup file.' },
  restorePasswordRequired: { id: 'keys.restore.passwordRequired', defaultMessage: 'Please enter your current login password to verify.' },
  restoreFileType: { id: 'keys.restore.fileType', defaultMessage: 'Invalid file type. Please select the downloaded .json backup file.' },
  restoreStructure: { id: 'keys.restore.structure', defaultMessage: 'Invalid or incomplete backup file structure. Missing required key data or salt.' },
  restoreUsernameCancelled: { id: 'keys.restore.usernameCancelled', defaultMessage: 'Restore cancelled due to username mismatch.' },
  restorePasswordVerification: { id: 'keys.restore.passwordVerification', defaultMessage: 'Password verification failed. Please enter your current login password.' },
  restoreReadEmpty: { id: 'keys.restore.readEmpty', defaultMessage: 'Failed to read file content.' },
  restoreParse: { id: 'keys.restore.parse', defaultMessage: "Failed to parse backup file. Ensure it's a valid JSON file." },
  restoreReadError: { id: 'keys.restore.readError', defaultMessage: 'Error reading the backup file.' },
  backupPasswordRequired: { id: 'keys.restore.backupPasswordRequired', defaultMessage: 'Please enter the login password you had when this backup was made.' },
  backupPasswordNeeded: {
    id: 'keys.restore.backupPasswordNeeded',
    defaultMessage:
      'This backup does not open with your current login password. It was probably made before your last password change: enter the login password you had when it was made.',
  },
  notAuthenticated: { id: 'keys.error.notAuthenticated', defaultMessage: 'Not authenticated. Please log in.' },
  profileUnavailable: { id: 'keys.error.profileUnavailable', defaultMessage: 'Profile unavailable. Please try logging in again.' },
  keyUnlocked: { id: 'keys.unlock.done', defaultMessage: 'Private key unlocked.' },
  keyRestored: { id: 'keys.restore.done', defaultMessage: 'Private key restored successfully.' },
  unlockFailed: { id: 'keys.unlock.failed', defaultMessage: 'Failed to unlock key: {message}', description: 'message is the reason, already in the current language' },
  generationFailed: { id: 'keys.generate.failed', defaultMessage: 'Key generation process failed: {detail}', description: 'detail is the reason, already in the current language' },
  restoreFailed: { id: 'keys.restore.failed', defaultMessage: 'Restore failed: {detail}', description: 'detail is the reason, already in the current language' },
  rewrapFailed: {
    id: 'keys.rewrap.failed',
    defaultMessage:
      'Your login password was changed, but your private key could not be re-encrypted with the new password ({reason}). The key data on the server might be unusable if the old password was wrong. Generate a new key pair, or restore your key from a backup file.',
    description: 'reason is the error, already in the current language',
  },
  wrongKey: { id: 'keys.cryptoError.wrongKey', defaultMessage: 'The key does not match the encrypted data.' },
  wrongPasskey: {
    id: 'keys.cryptoError.wrongPasskey',
    defaultMessage: 'The server answered a key copy that does not belong to this passkey, so it was not used. Unlock with your password instead.',
  },
  malformed: { id: 'keys.cryptoError.malformed', defaultMessage: 'The key data is damaged or has the wrong format.' },
  unsupportedVersion: { id: 'keys.cryptoError.unsupportedVersion', defaultMessage: 'The key data uses a format this app does not know.' },
  kdfRefused: { id: 'keys.cryptoError.kdfRefused', defaultMessage: 'The server asked for weaker password protection than this app allows, so the password was not used.' },
  kdfNameMismatch: { id: 'keys.cryptoError.kdfNameMismatch', defaultMessage: 'The server answered password protection made for another account, so the password was not used.' },
  sourceChanged: { id: 'keys.cryptoError.sourceChanged', defaultMessage: 'The data changed while it was being processed.' },
  workerFailed: { id: 'keys.cryptoError.workerFailed', defaultMessage: 'The encryption worker stopped unexpectedly. Reload the page and try again.' },
});

export const KEY_MESSAGES = textsOf({
  keyDataNotFound: messages.keyDataNotFound,
  missingPasswordOrKeyData: messages.missingPasswordOrKeyData,
  keyNotLoaded: messages.keyNotLoaded,
  unlockPasswordRequired: messages.unlockPasswordRequired,
  decryptionFailed: messages.decryptionFailed,
  generatePasswordRequired: messages.generatePasswordRequired,
  generationCancelled: messages.generationCancelled,
  restoreFileRequired: messages.restoreFileRequired,
  restorePasswordRequired: messages.restorePasswordRequired,
  restoreFileType: messages.restoreFileType,
  restoreStructure: messages.restoreStructure,
  restoreUsernameCancelled: messages.restoreUsernameCancelled,
  restorePasswordVerification: messages.restorePasswordVerification,
  restoreReadEmpty: messages.restoreReadEmpty,
  restoreParse: messages.restoreParse,
  restoreReadError: messages.restoreReadError,
  backupPasswordRequired: messages.backupPasswordRequired,
  /** The backup did not open with the current password: the caller asks for the one of that time. */
  backupPasswordNeeded: messages.backupPasswordNeeded,
  notAuthenticated: messages.notAuthenticated,
  profileUnavailable: messages.profileUnavailable,
  keyUnlocked: messages.keyUnlocked,
  keyRestored: messages.keyRestored,
});

export const unlockFailedMessage = (message: string) => t(messages.unlockFailed, { message });
export const generationFailedMessage = (detail: string) => t(messages.generationFailed, { detail });
export const restoreFailedMessage = (detail: string) => t(messages.restoreFailed, { detail });

/** The persistent warning of spec section 8 after a password change whose key re-wrap failed. */
export const rewrapFailedMessage = (reason: string) => t(messages.rewrapFailed, { reason });

export const CRYPTO_ERROR_TEXTS: { readonly [Code in CryptoErrorCode]: string } = textsOf({
  WRONG_PASSWORD: messages.decryptionFailed,
  INTEGRITY: messages.decryptionFailed,
  WRONG_KEY: messages.wrongKey,
  WRONG_PASSKEY: messages.wrongPasskey,
  MALFORMED: messages.malformed,
  UNSUPPORTED_VERSION: messages.unsupportedVersion,
  KDF_REFUSED: messages.kdfRefused,
  KDF_NAME_MISMATCH: messages.kdfNameMismatch,
  UNKNOWN_KEY: messages.keyNotLoaded,
  SOURCE_CHANGED: messages.sourceChanged,
  WORKER_FAILED: messages.workerFailed,
});
