/**
 * Every way a streaming download can fail, as one error class with a fixed `code` (callers branch
 * on the code, never on the text). The message is the text a user reads; the spec's catalogue
 * (section 8, "Crypto and download") supplies it where it has one.
 */
import type { WireFailure, WireFailureCode } from './protocol.ts';

export type DownloadErrorCode =
  | WireFailureCode
  /** No service worker controls the page (blocked, private mode, hard reload, development build). */
  | 'NO_STREAMING_SUPPORT';

export class DownloadError extends Error {
  override readonly name = 'DownloadError';

  constructor(
    readonly code: DownloadErrorCode,
    message: string,
  ) {
    super(message);
  }

  static fromWire(failure: WireFailure): DownloadError {
    return new DownloadError(failure.code, failure.message);
  }

  toWire(): WireFailure {
    return { code: this.code === 'NO_STREAMING_SUPPORT' ? 'FAILED' : this.code, message: this.message };
  }
}

export function isDownloadError(value: unknown, code?: DownloadErrorCode): value is DownloadError {
  return value instanceof DownloadError && (code === undefined || value.code === code);
}

/** The texts of the failures (spec section 8 where it has one). */
export const DOWNLOAD_MESSAGES = {
  integrity: 'Decryption failed: Incorrect password or corrupted data.',
  incomplete: 'Incomplete file data received from server.',
  missingEncryptionData: (file: string) => `Missing encryption data for ${file}`,
  invalidIv: 'Invalid encryption IV format received from server.',
  keyNotFound: (file: string) => `Decryption key for "${file}" not found.`,
  http: (file: string, detail: string) => `Failed to download ${file}: ${detail}`,
  aborted: 'The download was cancelled.',
  expired: 'The download did not start. Please try again.',
  noStreaming:
    "Downloads are decrypted by the app's service worker, which is not active in this tab. Reload the page (a normal reload, " +
    'not a hard refresh) and try again. Private windows or browser settings that block service workers prevent downloads.',
  unexpected: (detail: string) => (detail ? `Unexpected Error: ${detail}` : 'An unknown error occurred.'),
} as const;
