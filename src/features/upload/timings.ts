// How long the upload page's notices and queue entries stay (spec section 9).

/** Spec section 9: upload-page notifications 4 s, key-loaded notice 2 s, key-error notice 5 s. */
export const NOTICE_MS = { page: 4000, keyLoaded: 2000, keyError: 5000 } as const;

/** A stored file's row stays this long before it leaves the queue; a retry waits this long first. */
export const UPLOADED_ENTRY_LINGER_MS = 5000;
export const RETRY_DELAY_MS = 100;
