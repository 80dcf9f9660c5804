// The keys feature's texts (spec sections 5 and 8, "Keys"), and the text of each crypto error code.
import type { CryptoErrorCode } from '../../../crypto/index.ts';

export const KEY_MESSAGES = {
  keyDataNotFound: 'Encrypted key data not found on server. Please generate or restore keys in your profile.',
  missingPasswordOrKeyData: 'Missing password or key data.',
  keyNotLoaded: 'Key not loaded.',
  unlockPasswordRequired: 'Unlock requires a non-empty password.',
  decryptionFailed: 'Decryption failed: Incorrect password or corrupted data.',
  generatePasswordRequired: 'Password required to generate and encrypt keys.',
  generationCancelled: 'Key generation cancelled.',
  restoreFileRequired: 'Please select your .json backup file.',
  restorePasswordRequired: 'Please enter your current login password to verify.',
  restoreFileType: 'Invalid file type. Please select the downloaded .json backup file.',
  restoreStructure: 'Invalid or incomplete backup file structure. Missing required key data or salt.',
  restoreUsernameCancelled: 'Restore cancelled due to username mismatch.',
  restorePasswordVerification: 'Password verification failed. Please enter your current login password.',
  restoreReadEmpty: 'Failed to read file content.',
  restoreParse: "Failed to parse backup file. Ensure it's a valid JSON file.",
  restoreReadError: 'Error reading the backup file.',
  backupPasswordRequired: 'Please enter the login password you had when this backup was made.',
  notAuthenticated: 'Not authenticated. Please log in.',
  profileUnavailable: 'Profile unavailable. Please try logging in again.',
  keyUnlocked: 'Private key unlocked.',
  keyRestored: 'Private key restored successfully.',
} as const;

export const unlockFailedMessage = (message: string) => `Failed to unlock key: ${message}`;
export const generationFailedMessage = (detail: string) => `Key generation process failed: ${detail}`;
export const restoreFailedMessage = (detail: string) => `Restore failed: ${detail}`;

/** The persistent warning of spec section 8 after a password change whose key re-wrap failed. */
export const rewrapFailedMessage = (reason: string) =>
  `Your login password was changed, but your private key could not be re-encrypted with the new password (${reason}). ` +
  'The key data on the server might be unusable if the old password was wrong. ' +
  'Generate a new key pair, or restore your key from a backup file.';

export const CRYPTO_ERROR_TEXTS: Record<CryptoErrorCode, string> = {
  WRONG_PASSWORD: KEY_MESSAGES.decryptionFailed,
  INTEGRITY: KEY_MESSAGES.decryptionFailed,
  WRONG_KEY: 'The key does not match the encrypted data.',
  WRONG_PASSKEY: "The server answered a key copy that does not belong to this passkey, so it was not used. Unlock with your password instead.",
  MALFORMED: 'The key data is damaged or has the wrong format.',
  UNSUPPORTED_VERSION: 'The key data uses a format this app does not know.',
  KDF_REFUSED: 'The server asked for weaker password protection than this app allows, so the password was not used.',
  KDF_NAME_MISMATCH: 'The server answered password protection made for another account, so the password was not used.',
  UNKNOWN_KEY: KEY_MESSAGES.keyNotLoaded,
  SOURCE_CHANGED: 'The data changed while it was being processed.',
  WORKER_FAILED: 'The encryption worker stopped unexpectedly. Reload the page and try again.',
};

