/**
 * Every way a streaming download can fail, as one error class with a fixed `code` (callers branch
 * on the code, never on the text) and the facts the page needs to word it (contract/download-failure.ts).
 * Workers hold no user texts: the message is for logs only, and the page shows
 * downloadErrorText(error) from src/lib/userTexts.ts.
 */
import {
  DOWNLOAD_ERROR_CODES,
  isDownloadErrorCode,
  type DownloadErrorCode,
  type DownloadFailureCase,
  type DownloadFailureFacts,
} from '../../contract/download-failure.ts';

export { DOWNLOAD_ERROR_CODES, isDownloadErrorCode, type DownloadErrorCode, type DownloadFailureCase, type DownloadFailureFacts };

/** A log line of the facts, e.g. 'HTTP (network): report.pdf'. */
function logMessage(code: DownloadErrorCode, facts: DownloadFailureFacts): string {
  const parts = [facts.file, facts.status !== undefined ? `${facts.status} ${facts.statusText ?? ''}`.trim() : undefined, facts.detail].filter(Boolean);
  return `${code}${facts.case ? ` (${facts.case})` : ''}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';

  constructor(
    readonly code: DownloadErrorCode,
    readonly facts: DownloadFailureFacts = {},
  ) {
    super(logMessage(code, facts));
  }
}

export function isDownloadError(value: unknown, code?: DownloadErrorCode): value is DownloadError {
  return value instanceof DownloadError && (code === undefined || value.code === code);
}
