// The texts of download failures (spec section 8, "Crypto and download", where it has one), and
// the one mapping from a failure's code and facts (contract/download-failure.ts) to its text.
import type { DownloadErrorCode, DownloadFailure, DownloadFailureFacts } from '../../../contract/download-failure.ts';
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t } from '../../i18n/language.ts';

const messages = defineMessages({
  integrity: { id: 'download.error.integrity', defaultMessage: 'Decryption failed: Incorrect password or corrupted data.' },
  incomplete: { id: 'download.error.incomplete', defaultMessage: 'Incomplete file data received from server.' },
  missingEncryptionData: { id: 'download.error.missingEncryptionData', defaultMessage: 'Missing encryption data for {file}' },
  invalidIv: { id: 'download.error.invalidIv', defaultMessage: 'Invalid encryption IV format received from server.' },
  invalidKeyFormat: { id: 'download.error.invalidKeyFormat', defaultMessage: 'Invalid encryption key format received from server.' },
  nothingDecrypted: { id: 'download.error.nothingDecrypted', defaultMessage: 'No files could be decrypted.' },
  notDecrypted: {
    id: 'download.error.notDecrypted',
    defaultMessage: '{count, plural, other {Could not decrypt # file(s): {names}}}',
    description: 'names: the files, comma-separated',
  },
  keyNotFound: { id: 'download.error.keyNotFound', defaultMessage: 'Decryption key for "{file}" not found.' },
  http: { id: 'download.error.http', defaultMessage: 'Failed to download {file}: {detail}' },
  network: { id: 'download.error.network', defaultMessage: 'Network Error: Could not connect to the server.' },
  notResumable: { id: 'download.error.notResumable', defaultMessage: 'the file changed or cannot be resumed', description: 'The detail in "Failed to download {file}: {detail}"' },
  httpStatus: { id: 'download.error.httpStatus', defaultMessage: 'Error: {status} - {statusText}' },
  requestFailed: { id: 'download.error.requestFailed', defaultMessage: 'Request failed', description: 'The statusText in "Error: {status} - {statusText}" when the server gave none' },
  aborted: { id: 'download.error.aborted', defaultMessage: 'The download was cancelled.' },
  expired: { id: 'download.error.expired', defaultMessage: 'The download did not start. Please try again.' },
  noStreaming: {
    id: 'download.error.noStreaming',
    defaultMessage:
      "Downloads are decrypted by the app's service worker, which is not active in this tab. Reload the page (a normal reload, not a hard refresh) and try again. Private windows or browser settings that block service workers prevent downloads.",
  },
  diskFull: { id: 'download.error.diskFull', defaultMessage: 'Could not save "{file}": the disk is full. Free some space and try again.' },
  writeNotAllowed: {
    id: 'download.error.writeNotAllowed',
    defaultMessage: 'Could not save "{file}": the browser may not write to the chosen location. Choose another folder and try again.',
  },
  writeFailed: { id: 'download.error.writeFailed', defaultMessage: 'Could not save "{file}" ({detail}). Choose another location and try again.' },
  pickerFailed: { id: 'download.error.pickerFailed', defaultMessage: 'The save dialog did not open. Click the download button again.' },
  stalled: { id: 'download.error.stalled', defaultMessage: 'The download stopped: no data arrived for a minute. Please try again.' },
  noFiles: { id: 'download.error.noFiles', defaultMessage: 'No files selected for download.' },
  noZipFiles: { id: 'download.error.noZipFiles', defaultMessage: 'No files selected for ZIP download.' },
  unexpected: { id: 'download.error.unexpected', defaultMessage: 'Unexpected Error: {detail}' },
  unknown: { id: 'download.error.unknown', defaultMessage: 'An unknown error occurred.' },
});

/** The texts of download failures, each read in the current language when used. */
export const DOWNLOAD_MESSAGES = {
  get integrity() {
    return t(messages.integrity);
  },
  get incomplete() {
    return t(messages.incomplete);
  },
  missingEncryptionData: (file: string) => t(messages.missingEncryptionData, { file }),
  get invalidIv() {
    return t(messages.invalidIv);
  },
  get invalidKeyFormat() {
    return t(messages.invalidKeyFormat);
  },
  get nothingDecrypted() {
    return t(messages.nothingDecrypted);
  },
  /** The warning after a batch that left some files out. */
  notDecrypted: (names: readonly string[]) => t(messages.notDecrypted, { count: names.length, names: names.join(', ') }),
  keyNotFound: (file: string) => t(messages.keyNotFound, { file }),
  http: (file: string, detail: string) => t(messages.http, { file, detail }),
  get network() {
    return t(messages.network);
  },
  get notResumable() {
    return t(messages.notResumable);
  },
  httpStatus: (status: number, statusText: string) => t(messages.httpStatus, { status, statusText: statusText || t(messages.requestFailed) }),
  get aborted() {
    return t(messages.aborted);
  },
  get expired() {
    return t(messages.expired);
  },
  get noStreaming() {
    return t(messages.noStreaming);
  },
  /** Direct to disk (docs/download.md, "Direct to disk"). */
  diskFull: (file: string) => t(messages.diskFull, { file }),
  writeNotAllowed: (file: string) => t(messages.writeNotAllowed, { file }),
  writeFailed: (file: string, detail: string) => t(messages.writeFailed, { file, detail }),
  get pickerFailed() {
    return t(messages.pickerFailed);
  },
  get stalled() {
    return t(messages.stalled);
  },
  get noFiles() {
    return t(messages.noFiles);
  },
  get noZipFiles() {
    return t(messages.noZipFiles);
  },
  unexpected: (detail: string) => (detail ? t(messages.unexpected, { detail }) : t(messages.unknown)),
};

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
