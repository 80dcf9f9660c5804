// The public ZIP's partial-failure rules (spec section 4, ZIP download): files are processed in
// order and failures counted; all failed is an error, some failed a warning, none a success.

import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';
import { ZIP_PROBLEM_TOAST_MS, ZIP_SUCCESS_TOAST_MS } from './timings.ts';

export interface ZipOutcomeNotice {
  severity: 'success' | 'warning' | 'error';
  message: string;
  autoHideMs: number;
}

export function zipOutcomeNotice(totalFiles: number, failedFiles: number): ZipOutcomeNotice {
  if (totalFiles > 0 && failedFiles >= totalFiles) {
    return { severity: 'error', message: DOWNLOAD_PAGE_MESSAGES.allFailed, autoHideMs: ZIP_PROBLEM_TOAST_MS };
  }
  if (failedFiles > 0) {
    return { severity: 'warning', message: DOWNLOAD_PAGE_MESSAGES.someFailed(failedFiles), autoHideMs: ZIP_PROBLEM_TOAST_MS };
  }
  return { severity: 'success', message: DOWNLOAD_PAGE_MESSAGES.zipDone, autoHideMs: ZIP_SUCCESS_TOAST_MS };
}
