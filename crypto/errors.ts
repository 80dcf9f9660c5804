/**
 * Every failure of the crypto layer is a CryptoError with a fixed code. Callers branch on `code`
 * (the spec's error catalogue maps codes to user texts); messages are for logs and never contain
 * key material or passwords. A failed authentication tag always throws: there is no null return
 * and no fallback path anywhere in this layer.
 */
export const CRYPTO_ERROR_CODES = [
  /** Ciphertext was altered, reordered, truncated, extended or spliced (or the file key is wrong). */
  'INTEGRITY',
  /** A password-derived key failed to open the data it protects. */
  'WRONG_PASSWORD',
  /** A passkey's copy of the private key did not open with that passkey's PRF output and credential id. */
  'WRONG_PASSKEY',
  /** An RSA-OAEP unwrap failed: the file key was not wrapped for this private key. */
  'WRONG_KEY',
  /** Input is not of the expected shape: bad base64, wrong length, bad separators, bad header. */
  'MALFORMED',
  /** A well-formed header or parameter block of a format version this code does not know. */
  'UNSUPPORTED_VERSION',
  /**
   * A parameter block (from the server) cheaper than the default cost, or differing from the one
   * the link's fragment pins: nothing is derived with it and nothing is sent.
   */
  'KDF_REFUSED',
  /** An account's parameter block (from the server) bound to a name other than the one signed in with. */
  'KDF_NAME_MISMATCH',
  /** A key handle that the worker does not hold (never created, or already released). */
  'UNKNOWN_KEY',
  /** The source file changed (size or modification time) while its ciphertext was being produced. */
  'SOURCE_CHANGED',
  /** A worker died or an operation was used after its job was closed. */
  'WORKER_FAILED',
] as const;

export type CryptoErrorCode = (typeof CRYPTO_ERROR_CODES)[number];

export class CryptoError extends Error {
  override readonly name = 'CryptoError';
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isCryptoError(value: unknown, code?: CryptoErrorCode): value is CryptoError {
  return value instanceof CryptoError && (code === undefined || value.code === code);
}

export function isCryptoErrorCode(value: unknown): value is CryptoErrorCode {
  return typeof value === 'string' && (CRYPTO_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * WebCrypto reports a failed AES-GCM tag or RSA-OAEP decoding as a DOMException named
 * 'OperationError' (node: the same). Anything else (bad arguments, missing key usages) is a
 * programming error and is rethrown untouched.
 */
export function isAuthenticationFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'OperationError';
}
