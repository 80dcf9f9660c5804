// The keys feature's error class: code branches on `code`; the message is the catalogue's text the
// user reads (src/lib/userTexts.ts).

import { isCryptoError } from '../../../crypto/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { CRYPTO_ERROR_TEXTS } from '../../lib/userTexts.ts';

export type KeyErrorCode =
  | 'key-data-not-found'
  | 'missing-password-or-key-data'
  | 'key-not-loaded'
  | 'unlock-failed'
  | 'generation-failed'
  | 'rewrap-failed'
  | 'restore-invalid'
  | 'restore-wrong-backup-password'
  | 'restore-failed'
  | 'cancelled';

export class KeyError extends UserFacingError<KeyErrorCode> {
  override readonly name = 'KeyError';
}

export function isKeyError(error: unknown, code?: KeyErrorCode): error is KeyError {
  return error instanceof KeyError && (code === undefined || error.code === code);
}

/** The text for a failure of a key operation: crypto errors by code, anything else by its message. */
export function keyOperationFailureText(error: unknown, describe: (error: unknown) => string): string {
  if (isCryptoError(error)) return CRYPTO_ERROR_TEXTS[error.code];
  return describe(error);
}
