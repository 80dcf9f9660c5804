// The upload page's own texts (spec section 8, "Upload page") and how long its notices stay (section 9).

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

/** Spec section 9: upload-page notifications 4 s, key-loaded notice 2 s, key-error notice 5 s. */
export const NOTICE_MS = { page: 4000, keyLoaded: 2000, keyError: 5000 } as const;

export const alreadyDeliveredMessage = (n: number) =>
  `Not sent again: ${n} ${n === 1 ? 'file was' : 'files were'} already uploaded before the interruption.`;

/** A stored file's row stays this long before it leaves the queue; a retry waits this long first. */
export const UPLOADED_ENTRY_LINGER_MS = 5000;
export const RETRY_DELAY_MS = 100;
