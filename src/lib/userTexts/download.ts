// The texts of download failures (spec section 8, "Crypto and download", where it has one), and
// the one mapping from a failure's code and facts (contract/download-failure.ts) to its text.
import type { DownloadErrorCode, DownloadFailure, DownloadFailureFacts } from '../../../contract/download-failure.ts';

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
  network: 'Network Error: Could not connect to the server.',
  notResumable: 'the file changed or cannot be resumed',
  httpStatus: (status: number, statusText: string) => `Error: ${status} - ${statusText || 'Request failed'}`,
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
  stalled: 'The download stopped: no data arrived for a minute. Please try again.',
  noFiles: 'No files selected for download.',
  noZipFiles: 'No files selected for ZIP download.',
  unexpected: (detail: string) => (detail ? `Unexpected Error: ${detail}` : 'An unknown error occurred.'),
} as const;

function httpText(facts: DownloadFailureFacts): string {
  const file = facts.file ?? '';
  if (facts.case === 'network') return DOWNLOAD_MESSAGES.http(file, DOWNLOAD_MESSAGES.network);
  if (facts.case === 'not-resumable') return DOWNLOAD_MESSAGES.http(file, DOWNLOAD_MESSAGES.notResumable);
  if (facts.detail) return DOWNLOAD_MESSAGES.http(file, facts.detail);
  return DOWNLOAD_MESSAGES.http(file, DOWNLOAD_MESSAGES.httpStatus(facts.status ?? 0, facts.statusText ?? ''));
}

function writeText(facts: DownloadFailureFacts): string {
  const file = facts.file ?? '';
  if (facts.case === 'disk-full') return DOWNLOAD_MESSAGES.diskFull(file);
  if (facts.case === 'not-allowed') return DOWNLOAD_MESSAGES.writeNotAllowed(file);
  return DOWNLOAD_MESSAGES.writeFailed(file, facts.detail ?? '');
}

const TEXT_OF_CODE: Readonly<Record<DownloadErrorCode, (facts: DownloadFailureFacts) => string>> = {
  INTEGRITY: () => DOWNLOAD_MESSAGES.integrity,
  HTTP: httpText,
  HEADERS: (facts) => (facts.case === 'invalid-iv' ? DOWNLOAD_MESSAGES.invalidIv : DOWNLOAD_MESSAGES.missingEncryptionData(facts.file ?? '')),
  SIZE_MISMATCH: () => DOWNLOAD_MESSAGES.incomplete,
  ABORTED: () => DOWNLOAD_MESSAGES.aborted,
  EXPIRED: () => DOWNLOAD_MESSAGES.expired,
  KEY_UNAVAILABLE: (facts) => DOWNLOAD_MESSAGES.keyNotFound(facts.file ?? ''),
  WRITE_FAILED: writeText,
  FAILED: (facts) =>
    facts.case === 'no-files' ? DOWNLOAD_MESSAGES.noFiles : facts.case === 'no-zip-files' ? DOWNLOAD_MESSAGES.noZipFiles : DOWNLOAD_MESSAGES.unexpected(facts.detail ?? ''),
  NO_STREAMING_SUPPORT: () => DOWNLOAD_MESSAGES.noStreaming,
  KEY_FORMAT: () => DOWNLOAD_MESSAGES.invalidKeyFormat,
  NOTHING_DECRYPTED: () => DOWNLOAD_MESSAGES.nothingDecrypted,
  PICKER_FAILED: () => DOWNLOAD_MESSAGES.pickerFailed,
  STALLED: () => DOWNLOAD_MESSAGES.stalled,
};

/** The text the user reads for a download failure: by its code, filled in with its facts. */
export function downloadErrorText(failure: DownloadFailure): string {
  return TEXT_OF_CODE[failure.code](failure.facts);
}
