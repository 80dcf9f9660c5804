/**
 * Every way a streaming download can fail, as one error class with a fixed `code` (callers branch
 * on the code, never on the text). The message is the text a user reads; the spec's catalogue
 * (section 8, "Crypto and download") supplies it where it has one.
 */
export const DOWNLOAD_ERROR_CODES = [
  /** A record failed authentication: tampered or truncated data, or the wrong key. */
  'INTEGRITY',
  /** The ciphertext request failed (status, network). */
  'HTTP',
  /** The response lacks a header the plan requires, or carries a bad IV. */
  'HEADERS',
  /** The ciphertext ended early, or decrypts to another length than the announced plaintext size. */
  'SIZE_MISMATCH',
  /** The page (or the user in the download manager) cancelled. */
  'ABORTED',
  /** The plan was not fetched in time. */
  'EXPIRED',
  /** A file key did not arrive from the crypto worker. */
  'KEY_UNAVAILABLE',
  /** Direct to disk only: the chosen file or folder could not be written (full, no permission, in use). */
  'WRITE_FAILED',
  /** Anything else (its message says what). */
  'FAILED',
  /** No service worker controls the page (blocked, private mode, hard reload, development build). */
  'NO_STREAMING_SUPPORT',
  /** A file's wrapped key from the server is not a wrapped key at all (bad base64 or length). */
  'KEY_FORMAT',
  /** A batch (ZIP) in which not one file could be decrypted. */
  'NOTHING_DECRYPTED',
  /** Direct to disk: the browser's save or folder dialog could not be opened (not a cancel). */
  'PICKER_FAILED',
] as const;

export type DownloadErrorCode = (typeof DOWNLOAD_ERROR_CODES)[number];

export class DownloadError extends Error {
  override readonly name = 'DownloadError';

  constructor(
    readonly code: DownloadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isDownloadError(value: unknown, code?: DownloadErrorCode): value is DownloadError {
  return value instanceof DownloadError && (code === undefined || value.code === code);
}

export function isDownloadErrorCode(value: unknown): value is DownloadErrorCode {
  return typeof value === 'string' && (DOWNLOAD_ERROR_CODES as readonly string[]).includes(value);
}

/** The texts of the failures (spec section 8 where it has one). */
export const DOWNLOAD_MESSAGES = {
  integrity: 'Decryption failed: Incorrect password or corrupted data.',
  incomplete: 'Incomplete file data received from server.',
  missingEncryptionData: (file: string) => `Missing encryption data for ${file}`,
  invalidIv: 'Invalid encryption IV format received from server.',
  invalidKeyFormat: 'Invalid encryption key format received from server.',
  nothingDecrypted: 'No files could be decrypted.',
  /** The warning after a batch that left some files out. */
  notDecrypted: (names: readonly string[]) => `Could not decrypt ${names.length} file(s): ${names.join(', ')}`,
  keyNotFound: (file: string) => `Decryption key for "${file}" not found.`,
  http: (file: string, detail: string) => `Failed to download ${file}: ${detail}`,
  aborted: 'The download was cancelled.',
  expired: 'The download did not start. Please try again.',
  noStreaming:
    "Downloads are decrypted by the app's service worker, which is not active in this tab. Reload the page (a normal reload, " +
    'not a hard refresh) and try again. Private windows or browser settings that block service workers prevent downloads.',
  /** Direct to disk (docs/download.md, "Direct to disk"). */
  diskFull: (file: string) => `Could not save "${file}": the disk is full. Free some space and try again.`,
  writeNotAllowed: (file: string) =>
    `Could not save "${file}": the browser may not write to the chosen location. Choose another folder and try again.`,
  writeFailed: (file: string, detail: string) => `Could not save "${file}" (${detail}). Choose another location and try again.`,
  pickerFailed: 'The save dialog did not open. Click the download button again.',
  unexpected: (detail: string) => (detail ? `Unexpected Error: ${detail}` : 'An unknown error occurred.'),
} as const;
