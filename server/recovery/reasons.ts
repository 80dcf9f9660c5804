// The one place that turns error codes into the report's words. Branches on `code` only; the
// message of a FileRecoveryError is written for this report and carries its details (sizes, blob).
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import type { OfflineCryptoErrorCode } from '../crypto/index.ts';
import { OfflineCryptoError } from '../crypto/index.ts';
import { FileRecoveryError } from './errors.ts';

const CRYPTO_REASONS: Record<OfflineCryptoErrorCode, string> = {
  INTEGRITY: 'the encrypted data failed authentication: it was altered or damaged',
  WRONG_KEY: 'the file key does not open with this private key (encrypted for another key pair, or encrypted_key altered)',
  MALFORMED: "the manifest's encrypted_key or iv is malformed",
  UNSUPPORTED_VERSION: 'the blob is in an encrypted-file format version this command does not know',
  WRONG_PASSWORD: 'wrong password',
};

/** One line: why this file was not recovered, ending in the error code. */
export function fileFailureReason(error: unknown): string {
  if (error instanceof FileRecoveryError) return `${error.message} [${error.code}]`;
  if (error instanceof OfflineCryptoError) return `${CRYPTO_REASONS[error.code]} [${error.code}]`;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `unexpected error (${detail})`;
}

/** Names from a manifest may hold anything; control characters are shown escaped, not sent to the terminal. */
export function printablePath(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
