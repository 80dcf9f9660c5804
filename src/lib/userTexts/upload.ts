// The upload page's texts: its gate forms (spec section 5, "Upload page", and section 8) and the
// page's own notices (section 8, "Upload page").
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  tokenMissing: { id: 'upload.page.tokenMissing', defaultMessage: 'Token missing from URL.' },
  linkInvalid: { id: 'upload.page.linkInvalid', defaultMessage: 'Link invalid/expired.' },

  passwordRequired: { id: 'upload.gate.passwordRequired', defaultMessage: 'Link password required.' },
  invalidEmail: { id: 'upload.gate.invalidEmail', defaultMessage: 'Enter a valid e-mail address.' },
  allowedListNote: { id: 'upload.gate.allowedListNote', defaultMessage: 'Only specific email addresses are allowed for this link.' },
  codeFormat: { id: 'upload.gate.codeFormat', defaultMessage: 'Verification code must be exactly 6 digits.' },
  invalidOrExpiredCode: { id: 'upload.gate.invalidOrExpiredCode', defaultMessage: 'Invalid or expired verification code.' },
  codeVerificationFailed: { id: 'upload.gate.codeVerificationFailed', defaultMessage: 'Code verification failed.' },
  errorSendingCode: { id: 'upload.gate.errorSendingCode', defaultMessage: 'Error sending code: {reason}' },
  codeResent: { id: 'upload.gate.codeResent', defaultMessage: 'A new code was sent to {email}.' },

  alreadyRunning: { id: 'upload.page.alreadyRunning', defaultMessage: 'An upload is already in progress.' },
  nothingPending: { id: 'upload.page.nothingPending', defaultMessage: 'No new files are pending for upload.' },
  nothingToRetry: { id: 'upload.page.nothingToRetry', defaultMessage: 'No files to retry.' },
  noReceipt: { id: 'upload.page.noReceipt', defaultMessage: 'No files have been successfully uploaded yet to generate a receipt.' },
  unexpectedStep: { id: 'upload.page.unexpectedStep', defaultMessage: 'An unexpected error occurred. Please refresh the page.' },
  keyMissing: { id: 'upload.page.keyMissing', defaultMessage: 'Recipient public key is missing or not configured.' },
  keyLoaded: { id: 'upload.page.keyLoaded', defaultMessage: 'Encryption key loaded.' },
  keyLoadFailed: { id: 'upload.page.keyLoadFailed', defaultMessage: 'Failed to load encryption key: {reason}' },
  alreadyDelivered: {
    id: 'upload.page.alreadyDelivered',
    defaultMessage: 'Not sent again: {count, plural, one {# file was} other {# files were}} already uploaded before the interruption.',
  },

  workerUnresponsive: {
    id: 'upload.processing.workerUnresponsive',
    defaultMessage: 'the encryption worker did not respond; please reload the page',
    description: 'The reason in "Encryption failed: {reason}"',
  },
  workerStopped: {
    id: 'upload.processing.workerStopped',
    defaultMessage: 'the encryption worker stopped; press Retry to continue',
    description: 'The reason in "Encryption failed: {reason}"',
  },

  folderQuotaExceeded: {
    id: 'upload.storage.folderQuotaExceeded',
    defaultMessage: 'This folder cannot take more files right now. Contact the person who sent you the link.',
  },
  storageFull: {
    id: 'upload.storage.storageFull',
    defaultMessage: 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.',
  },

  allProcessingFailed: { id: 'upload.run.allProcessingFailed', defaultMessage: 'All files failed during client-side processing. Please check files or try again.' },
  someProcessingFailed: {
    id: 'upload.run.someProcessingFailed',
    defaultMessage: 'Some files failed client-side processing. Only successfully processed files will be uploaded.',
  },
  noneProcessed: { id: 'upload.run.noneProcessed', defaultMessage: 'No files were successfully processed for upload.' },
  emptyResponse: { id: 'upload.run.emptyResponse', defaultMessage: 'Received empty response data from server.' },
  someUploadsFailed: { id: 'upload.run.someUploadsFailed', defaultMessage: 'Some files failed to upload. Check file statuses.' },
  notConfirmed: { id: 'upload.run.notConfirmed', defaultMessage: 'Upload processed, but server did not confirm file outcomes for this batch.' },
  requestFailedFile: { id: 'upload.run.requestFailedFile', defaultMessage: 'Upload API call failed', description: "A file's status after its upload request failed" },
  encryptionKeyMissing: { id: 'upload.run.encryptionKeyMissing', defaultMessage: 'Encryption key missing' },
  unreported: { id: 'upload.run.unreported', defaultMessage: 'Upload status unreported by server' },
  serverFailed: { id: 'upload.run.serverFailed', defaultMessage: 'Upload failed on server', description: "A file's status when the server refused it without a reason" },
  unexpectedReason: { id: 'upload.run.unexpectedReason', defaultMessage: 'An unexpected error occurred.' },
  requestFailed: { id: 'upload.run.requestFailed', defaultMessage: 'Upload API call failed: {reason}' },
  processingFailed: { id: 'upload.run.processingFailed', defaultMessage: 'Processing failed for {file}: {reason}' },
  batchProcessed: { id: 'upload.run.batchProcessed', defaultMessage: 'Batch processed: {succeeded} succeeded, {failed} failed.' },
  allReceived: { id: 'upload.run.allReceived', defaultMessage: '{count, plural, other {Upload successful! All # processed files received.}}' },
  confirmed: { id: 'upload.run.confirmed', defaultMessage: '{count, plural, other {Upload processed: # files confirmed successful.}}' },
});

export const GATE_MESSAGES = textsOf({
  passwordRequired: messages.passwordRequired,
  invalidEmail: messages.invalidEmail,
  allowedListNote: messages.allowedListNote,
  codeFormat: messages.codeFormat,
  invalidOrExpiredCode: messages.invalidOrExpiredCode,
  codeVerificationFailed: messages.codeVerificationFailed,
});

export const errorSendingCodeMessage = (reason: string) => t(messages.errorSendingCode, { reason });
export const codeResentMessage = (email: string) => t(messages.codeResent, { email });

/** The page's notices; tokenMissing and linkInvalid are its fatal step (spec section 8, "Upload page"). */
export const PAGE_MESSAGES = textsOf({
  tokenMissing: messages.tokenMissing,
  linkInvalid: messages.linkInvalid,
  alreadyRunning: messages.alreadyRunning,
  nothingPending: messages.nothingPending,
  nothingToRetry: messages.nothingToRetry,
  noReceipt: messages.noReceipt,
  unexpectedStep: messages.unexpectedStep,
  keyMissing: messages.keyMissing,
  keyLoaded: messages.keyLoaded,
});

export const keyLoadFailedMessage = (reason: string) => t(messages.keyLoadFailed, { reason });

/**
 * The reasons of a file's 'Encryption failed: {reason}' (spec section 8) when the browser's own
 * encryption stopped, rather than the file: a worker that stopped answering (a reload restarts the
 * page's workers), and one that died and was replaced (Retry continues the file).
 */
export const PROCESSING_REASONS = textsOf({
  workerUnresponsive: messages.workerUnresponsive,
  workerStopped: messages.workerStopped,
});

export const alreadyDeliveredMessage = (n: number) => t(messages.alreadyDelivered, { count: n });

/**
 * An upload refused for want of room (docs/api.md, FOLDER_QUOTA_EXCEEDED and STORAGE_FULL): what
 * happened and what the uploader can do. Worded by the server's code (src/api/errors.ts); the
 * files keep what the server holds of them, so Retry continues once there is room.
 */
export const STORAGE_REFUSAL_MESSAGES = textsOf({
  FOLDER_QUOTA_EXCEEDED: messages.folderQuotaExceeded,
  STORAGE_FULL: messages.storageFull,
});

/**
 * What the uploader is told when a run ends (spec section 8, "Upload page"; the rules:
 * features/upload/runOutcome.ts). `unreported`: a sent file the server's Upload result does not
 * mention (spec section 7); `serverFailed`: one it refused without saying why.
 */
export const RUN_MESSAGES = textsOf({
  allProcessingFailed: messages.allProcessingFailed,
  someProcessingFailed: messages.someProcessingFailed,
  noneProcessed: messages.noneProcessed,
  emptyResponse: messages.emptyResponse,
  someUploadsFailed: messages.someUploadsFailed,
  notConfirmed: messages.notConfirmed,
  requestFailedFile: messages.requestFailedFile,
  encryptionKeyMissing: messages.encryptionKeyMissing,
  unreported: messages.unreported,
  serverFailed: messages.serverFailed,
  unexpectedReason: messages.unexpectedReason,
});

export const requestFailedMessage = (reason: string) => t(messages.requestFailed, { reason });
export const processingFailedToast = (file: string, reason: string) => t(messages.processingFailed, { file, reason });
export const batchProcessedMessage = (succeeded: number, failed: number) => t(messages.batchProcessed, { succeeded, failed });
export const allReceivedMessage = (n: number) => t(messages.allReceived, { count: n });
export const confirmedMessage = (n: number) => t(messages.confirmed, { count: n });
