// What the uploader is told when a run ends (spec section 8, "Upload page"), decided from the
// counts of what happened to its files. Pure, so every rule is a unit test:
//
//   - nothing could be processed: 'No files were successfully processed for upload.'; step 7 with
//     'All files failed during client-side processing. Please check files or try again.'
//   - a request failed for good: 'Upload API call failed: {reason}' (step 7; the files read
//     'Upload API call failed')
//   - an answer that is not an Upload result: 'Received empty response data from server.'
//   - answered files: all stored -> 'Upload successful! All N processed files received.' (or, when
//     some files had failed before sending, 'Upload processed: N files confirmed successful.');
//     some failed or unreported -> warning 'Batch processed: N succeeded, M failed.' and step 7
//     'Some files failed to upload. Check file statuses.'; nothing confirmed at all -> 'Upload
//     processed, but server did not confirm file outcomes for this batch.'
//   - only client-side failures: step 7 'Some files failed client-side processing. Only
//     successfully processed files will be uploaded.'

import { RUN_MESSAGES, allReceivedMessage, batchProcessedMessage, confirmedMessage, requestFailedMessage } from '../../lib/userTexts.ts';

export interface RunCounts {
  total: number;
  processingFailed: number;
  requestFailed: number;
  /** First reason a request failed for good, as the page shows it. */
  requestFailureReason: string | null;
  stored: number;
  serverFailed: number;
  unreported: number;
  emptyResponse: boolean;
}

export type ToastVariant = 'success' | 'info' | 'warning' | 'error';

export interface RunOutcome {
  toasts: Array<{ variant: ToastVariant; message: string }>;
  /** Step 7's message, or null for step 4. */
  stepError: string | null;
}

export function emptyRunCounts(total = 0): RunCounts {
  return { total, processingFailed: 0, requestFailed: 0, requestFailureReason: null, stored: 0, serverFailed: 0, unreported: 0, emptyResponse: false };
}

export function runOutcome(counts: RunCounts): RunOutcome {
  const toasts: RunOutcome['toasts'] = [];
  if (counts.total > 0 && counts.processingFailed === counts.total) {
    return { toasts: [{ variant: 'error', message: RUN_MESSAGES.noneProcessed }], stepError: RUN_MESSAGES.allProcessingFailed };
  }
  let stepError: string | null = null;
  const keep = (message: string) => {
    stepError ??= message;
  };
  if (counts.requestFailed > 0) {
    const message = requestFailedMessage(counts.requestFailureReason ?? RUN_MESSAGES.unexpectedReason);
    toasts.push({ variant: 'error', message });
    keep(message);
  }
  if (counts.emptyResponse) toasts.push({ variant: 'error', message: RUN_MESSAGES.emptyResponse });
  const answered = counts.stored + counts.serverFailed + counts.unreported;
  if (answered > 0) {
    const failed = counts.serverFailed + counts.unreported;
    if (counts.stored === 0 && counts.serverFailed === 0) {
      toasts.push({ variant: 'warning', message: RUN_MESSAGES.notConfirmed });
      keep(RUN_MESSAGES.someUploadsFailed);
    } else if (failed > 0) {
      toasts.push({ variant: 'warning', message: batchProcessedMessage(counts.stored, failed) });
      keep(RUN_MESSAGES.someUploadsFailed);
    } else if (counts.processingFailed > 0 || counts.requestFailed > 0) {
      toasts.push({ variant: 'success', message: confirmedMessage(counts.stored) });
    } else {
      toasts.push({ variant: 'success', message: allReceivedMessage(counts.stored) });
    }
  }
  if (counts.processingFailed > 0) keep(RUN_MESSAGES.someProcessingFailed);
  return { toasts, stepError };
}
