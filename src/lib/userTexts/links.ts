// The create-link dialog's and the links list's texts (spec section 5, Create-link dialog, and section 8).
// The download limit's upper bound is features/links/createLinkForm.ts's MAX_LINK_DOWNLOADS (a test ties them).

export const CREATE_LINK_MESSAGES = {
  passwordTooShort: 'Password must be at least 8 characters long.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidExpiration: 'Please select a valid expiration date.',
  noSelection: 'Please select at least one file to create a download link.',
  createFailed: 'Failed to create link.',
  deleteFailed: 'Failed to delete link.',
  deleteConfirmation: 'Are you sure you want to permanently delete this download link?',
  sharePasswordSeparately: 'Remember to share the password separately!',
  invalidDownloadLimit: `Please enter a whole number of downloads from 1 to 10000.`,
} as const;
