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
  // Not in the spec: a typed link password must be at least as strong as a suggested one
  // (features/links/linkPasswordStrength.ts).
  passwordTooWeak:
    'This password is easier to guess than a suggested one. Anyone holding a copy of the link could try passwords offline, so use a suggested password or a longer, less common one.',
  passwordCheckUnavailable: 'The password strength check could not be loaded. Check your connection and try again, or use a suggested password.',
  useSuggestedPassword: 'Use a suggested password',
  checkingPassword: 'Checking...',
  invalidDownloadLimit: `Please enter a whole number of downloads from 1 to 10000.`,
} as const;
