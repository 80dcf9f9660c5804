/**
 * What a download failure is, as data that crosses the wire from a worker to the page: a fixed
 * `code` (callers branch on it, never on a text) and the facts its text needs (the file, a
 * server's answer). The page turns them into the text the user reads (src/lib/userTexts.ts,
 * downloadErrorText); workers hold no user texts.
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
  /** Anything else (its facts' detail says what). */
  'FAILED',
  /** No service worker controls the page (blocked, private mode, hard reload, development build). */
  'NO_STREAMING_SUPPORT',
  /** A file's wrapped key from the server is not a wrapped key at all (bad base64 or length). */
  'KEY_FORMAT',
  /** A batch (ZIP) in which not one file could be decrypted. */
  'NOTHING_DECRYPTED',
  /** Direct to disk: the browser's save or folder dialog could not be opened (not a cancel). */
  'PICKER_FAILED',
  /** Bytes had started to flow, then none came for the page's no-progress limit (a worker that died mid-stream). */
  'STALLED',
] as const;

export type DownloadErrorCode = (typeof DOWNLOAD_ERROR_CODES)[number];

export function isDownloadErrorCode(value: unknown): value is DownloadErrorCode {
  return typeof value === 'string' && (DOWNLOAD_ERROR_CODES as readonly string[]).includes(value);
}

/** Where a code covers several cases whose texts differ, which one it was. */
export type DownloadFailureCase =
  /** HEADERS: a header the plan requires is missing. */
  | 'missing-header'
  /** HEADERS: the IV header differs from the file record's. */
  | 'invalid-iv'
  /** HTTP: no answer at all. */
  | 'network'
  /** HTTP: a resumed request found the file changed. */
  | 'not-resumable'
  /** WRITE_FAILED: the disk is full. */
  | 'disk-full'
  /** WRITE_FAILED: the browser refused to write there. */
  | 'not-allowed'
  /** FAILED: a download was started with no files. */
  | 'no-files'
  /** FAILED: a ZIP download was started with no files. */
  | 'no-zip-files';

/** The facts a failure's text needs: data from the code that raised it, never a user text. */
export interface DownloadFailureFacts {
  readonly case?: DownloadFailureCase;
  /** The file concerned. */
  readonly file?: string;
  /** The server's answer: its detail, or else its status line. */
  readonly status?: number;
  readonly statusText?: string;
  /** A server's detail, a browser's error name or an unexpected error's message, shown as it is. */
  readonly detail?: string;
}

const FACT_KEYS = ['case', 'file', 'status', 'statusText', 'detail'] as const;

/** The facts again after a message boundary: known keys of the right type only. */
export function readDownloadFailureFacts(value: unknown): DownloadFailureFacts {
  if (typeof value !== 'object' || value === null) return {};
  const source = value as Record<string, unknown>;
  const facts: Record<string, string | number> = {};
  for (const key of FACT_KEYS) {
    const fact = source[key];
    if (key === 'status' ? typeof fact === 'number' : typeof fact === 'string') facts[key] = fact as string | number;
  }
  return facts as DownloadFailureFacts;
}

/** A download failure as code and facts (a DownloadError, which the page gets from workers/index.ts). */
export interface DownloadFailure {
  readonly code: DownloadErrorCode;
  readonly facts: DownloadFailureFacts;
}

/** Whether a value is a download failure (checked by shape, so src/lib and src/api need no worker import). */
export function isDownloadFailure(value: unknown): value is DownloadFailure {
  if (typeof value !== 'object' || value === null) return false;
  const { name, code, facts } = value as Record<string, unknown>;
  return name === 'DownloadError' && isDownloadErrorCode(code) && typeof facts === 'object' && facts !== null;
}
