/**
 * Errors of the node:crypto implementation. Deliberately separate from crypto/ (this module is
 * an independent implementation of the same format and must not share code with it); the codes
 * are the same strings so callers and tests can compare behaviour.
 */
import { CodedError } from '../../contract/coded-error.ts';
import { checkCanonicalBase64 } from '../base64.ts';

export type OfflineCryptoErrorCode = 'INTEGRITY' | 'WRONG_PASSWORD' | 'WRONG_KEY' | 'MALFORMED' | 'UNSUPPORTED_VERSION';

export class OfflineCryptoError extends CodedError<OfflineCryptoErrorCode> {}

/** Strict, canonical, padded base64 (server/base64.ts), or a MALFORMED error naming `what`. */
export function strictBase64(text: string, what: string): Buffer {
  const checked = checkCanonicalBase64(text);
  if (checked.ok) return checked.bytes;
  throw new OfflineCryptoError('MALFORMED', `${what} is not ${checked.problem === 'not-canonical' ? 'canonical' : 'valid'} base64`);
}
