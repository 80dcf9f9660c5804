import { describe, expect, it } from 'vitest';
import { describeApiError } from '../../api/errors.ts';
import { CryptoError } from '../../../crypto/index.ts';
import { generationFailedMessage, KEY_MESSAGES, restoreFailedMessage, rewrapFailedMessage, unlockFailedMessage } from '../../lib/userTexts.ts';
import { isKeyError, KeyError, keyOperationFailureText } from './keyError.ts';

// Spec sections 5 and 8 ("Keys", "Key generation", "Restore"), word for word.
describe('key messages', () => {
  it('are the exact texts of the spec', () => {
    expect(KEY_MESSAGES.keyDataNotFound).toBe('Encrypted key data not found on server. Please generate or restore keys in your profile.');
    expect(KEY_MESSAGES.missingPasswordOrKeyData).toBe('Missing password or key data.');
    expect(KEY_MESSAGES.keyNotLoaded).toBe('Key not loaded.');
    expect(KEY_MESSAGES.unlockPasswordRequired).toBe('Unlock requires a non-empty password.');
    expect(KEY_MESSAGES.decryptionFailed).toBe('Decryption failed: Incorrect password or corrupted data.');
    expect(KEY_MESSAGES.generatePasswordRequired).toBe('Password required to generate and encrypt keys.');
    expect(KEY_MESSAGES.generationCancelled).toBe('Key generation cancelled.');
    expect(KEY_MESSAGES.restoreFileRequired).toBe('Please select your .json backup file.');
    expect(KEY_MESSAGES.restorePasswordRequired).toBe('Please enter your current login password to verify.');
    expect(KEY_MESSAGES.restoreFileType).toBe('Invalid file type. Please select the downloaded .json backup file.');
    expect(KEY_MESSAGES.restoreStructure).toBe('Invalid or incomplete backup file structure. Missing required key data or salt.');
    expect(KEY_MESSAGES.restoreUsernameCancelled).toBe('Restore cancelled due to username mismatch.');
    expect(KEY_MESSAGES.restorePasswordVerification).toBe('Password verification failed. Please enter your current login password.');
    expect(KEY_MESSAGES.restoreReadEmpty).toBe('Failed to read file content.');
    expect(KEY_MESSAGES.restoreParse).toBe("Failed to parse backup file. Ensure it's a valid JSON file.");
    expect(KEY_MESSAGES.restoreReadError).toBe('Error reading the backup file.');
    expect(KEY_MESSAGES.notAuthenticated).toBe('Not authenticated. Please log in.');
    expect(KEY_MESSAGES.profileUnavailable).toBe('Profile unavailable. Please try logging in again.');
    expect(unlockFailedMessage('x')).toBe('Failed to unlock key: x');
    expect(generationFailedMessage('y')).toBe('Key generation process failed: y');
    expect(restoreFailedMessage('z')).toBe('Restore failed: z');
  });

  it('the re-encryption warning says the server data might be unusable and advises new keys or a backup restore', () => {
    const text = rewrapFailedMessage('Network Error: Could not connect to the server.');
    expect(text).toContain('Network Error: Could not connect to the server.');
    expect(text).toContain('might be unusable if the old password was wrong');
    expect(text).toContain('Generate a new key pair, or restore your key from a backup file.');
  });

  it('KeyError keeps its code and its text through describeApiError', () => {
    const error = new KeyError('key-not-loaded', KEY_MESSAGES.keyNotLoaded);
    expect(isKeyError(error, 'key-not-loaded')).toBe(true);
    expect(isKeyError(error, 'unlock-failed')).toBe(false);
    expect(isKeyError(new Error('Key not loaded.'))).toBe(false);
    expect(describeApiError(error)).toEqual({ code: 'app', appCode: 'key-not-loaded', message: 'Key not loaded.', toast: true, status: null, serverCode: null });
  });

  it('crypto failures are described by code, other failures by the catalogue', () => {
    const describe = (error: unknown) => describeApiError(error).message;
    expect(keyOperationFailureText(new CryptoError('WRONG_PASSWORD', 'internal words'), describe)).toBe(
      'Decryption failed: Incorrect password or corrupted data.',
    );
    expect(keyOperationFailureText(new CryptoError('UNKNOWN_KEY', 'x'), describe)).toBe('Key not loaded.');
    expect(keyOperationFailureText(new CryptoError('MALFORMED', 'x'), describe)).toBe('The key data is damaged or has the wrong format.');
    expect(keyOperationFailureText(new Error('boom'), describe)).toBe('Unexpected Error: boom');
  });
});
