// How long the public download page's notices and row states stay.

/** Spec section 9: 'Done!' (and 'Failed') reset after 3 s; the ZIP toast closes after 3 s (success) or 5 s. */
export const FILE_STATUS_RESET_MS = 3000;
export const ZIP_SUCCESS_TOAST_MS = 3000;
export const ZIP_PROBLEM_TOAST_MS = 5000;
