/**
 * Errors of the node:crypto implementation. Deliberately separate from src/crypto (this module is
 * an independent implementation of the same format and must not share code with it); the codes
 * are the same strings so callers and tests can compare behaviour.
 */
export type OfflineCryptoErrorCode = 'INTEGRITY' | 'WRONG_PASSWORD' | 'WRONG_KEY' | 'MALFORMED' | 'UNSUPPORTED_VERSION';

export class OfflineCryptoError extends Error {
  override readonly name = 'OfflineCryptoError';
  constructor(
    readonly code: OfflineCryptoErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Strict padded base64 via Buffer, which on its own ignores bad characters; hence the round trip. */
export function strictBase64(text: string, what: string): Buffer {
  if (typeof text !== 'string' || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
    throw new OfflineCryptoError('MALFORMED', `${what} is not valid base64`);
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new OfflineCryptoError('MALFORMED', `${what} is not canonical base64`);
  return bytes;
}
