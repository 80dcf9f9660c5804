// The upload page's texts: its gate forms (spec section 5, "Upload page", and section 8) and the
// page's own notices (section 8, "Upload page").

/** The upload page's fatal step (spec section 8, "Upload page"). */
export const TOKEN_MISSING_MESSAGE = 'Token missing from URL.';
export const LINK_INVALID_MESSAGE = 'Link invalid/expired.';

export const GATE_MESSAGES = {
  passwordRequired: 'Link password required.',
  invalidEmail: 'Enter a valid e-mail address.',
  allowedListNote: 'Only specific email addresses are allowed for this link.',
  codeFormat: 'Verification code must be exactly 6 digits.',
  invalidOrExpiredCode: 'Invalid or expired verification code.',
  codeVerificationFailed: 'Code verification failed.',
} as const;

export const errorSendingCodeMessage = (reason: string) => `Error sending code: ${reason}`;
export const codeResentMessage = (email: string) => `A new code was sent to ${email}.`;

export const PAGE_MESSAGES = {
  alreadyRunning: 'An upload is already in progress.',
  nothingPending: 'No new files are pending for upload.',
  nothingToRetry: 'No files to retry.',
  noReceipt: 'No files have been successfully uploaded yet to generate a receipt.',
  unexpectedStep: 'An unexpected error occurred. Please refresh the page.',
  keyMissing: 'Recipient public key is missing or not configured.',
  keyLoaded: 'Encryption key loaded.',
} as const;

export const keyLoadFailedMessage = (reason: string) => `Failed to load encryption key: ${reason}`;

/**
 * The reasons of a file's 'Encryption failed: {reason}' (spec section 8) when the browser's own
 * encryption stopped, rather than the file: a worker that stopped answering (a reload restarts the
 * page's workers), and one that died and was replaced (Retry continues the file).
 */
export const PROCESSING_REASONS = {
  workerUnresponsive: 'the encryption worker did not respond; please reload the page',
  workerStopped: 'the encryption worker stopped; press Retry to continue',
} as const;

export const alreadyDeliveredMessage = (n: number) =>
  `Not sent again: ${n} ${n === 1 ? 'file was' : 'files were'} already uploaded before the interruption.`;


/**
 * An upload refused for want of room (docs/api.md, FOLDER_QUOTA_EXCEEDED and STORAGE_FULL): what
 * happened and what the uploader can do. Worded by the server's code (src/api/errors.ts); the
 * files keep what the server holds of them, so Retry continues once there is room.
 */
export const STORAGE_REFUSAL_MESSAGES = {
  FOLDER_QUOTA_EXCEEDED: 'This folder cannot take more files right now. Contact the person who sent you the link.',
  STORAGE_FULL: 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.',
} as const;

/** What the uploader is told when a run ends (spec section 8, "Upload page"; the rules: features/upload/runOutcome.ts). */
export const RUN_MESSAGES = {
  allProcessingFailed: 'All files failed during client-side processing. Please check files or try again.',
  someProcessingFailed: 'Some files failed client-side processing. Only successfully processed files will be uploaded.',
  noneProcessed: 'No files were successfully processed for upload.',
  emptyResponse: 'Received empty response data from server.',
  someUploadsFailed: 'Some files failed to upload. Check file statuses.',
  notConfirmed: 'Upload processed, but server did not confirm file outcomes for this batch.',
  requestFailedFile: 'Upload API call failed',
  encryptionKeyMissing: 'Encryption key missing',
} as const;

export const requestFailedMessage = (reason: string) => `Upload API call failed: ${reason}`;
export const processingFailedToast = (file: string, reason: string) => `Processing failed for ${file}: ${reason}`;
export const batchProcessedMessage = (succeeded: number, failed: number) => `Batch processed: ${succeeded} succeeded, ${failed} failed.`;
export const allReceivedMessage = (n: number) => `Upload successful! All ${n} processed files received.`;
export const confirmedMessage = (n: number) => `Upload processed: ${n} files confirmed successful.`;

/** A sent file the server's Upload result does not mention (spec section 7). */
export const UNREPORTED_MESSAGE = 'Upload status unreported by server';
