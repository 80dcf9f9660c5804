// The create-link dialog's and the links list's texts (spec section 5, Create-link dialog, and section 8).
// The download limit's upper bound is features/links/createLinkForm.ts's MAX_LINK_DOWNLOADS (a test ties them).
import { defineMessages } from '../../i18n/defineMessages.ts';
import { textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  passwordTooShort: { id: 'links.create.passwordTooShort', defaultMessage: 'Password must be at least 8 characters long.' },
  passwordsDoNotMatch: { id: 'links.create.passwordsDoNotMatch', defaultMessage: 'Passwords do not match.' },
  invalidExpiration: { id: 'links.create.invalidExpiration', defaultMessage: 'Please select a valid expiration date.' },
  noSelection: { id: 'links.create.noSelection', defaultMessage: 'Please select at least one file to create a download link.' },
  createFailed: { id: 'links.create.failed', defaultMessage: 'Failed to create link.' },
  deleteFailed: { id: 'links.list.deleteFailed', defaultMessage: 'Failed to delete link.' },
  deleteConfirmation: { id: 'links.list.deleteConfirmation', defaultMessage: 'Are you sure you want to permanently delete this download link?' },
  sharePasswordSeparately: { id: 'links.ready.sharePasswordSeparately', defaultMessage: 'Remember to share the password separately!' },
  // Not in the spec: a typed link password must be at least as strong as a suggested one
  // (features/links/linkPasswordStrength.ts).
  passwordTooWeak: {
    id: 'links.create.passwordTooWeak',
    defaultMessage:
      'This password is easier to guess than a suggested one. Anyone holding a copy of the link could try passwords offline, so use a suggested password or a longer, less common one.',
  },
  passwordCheckUnavailable: {
    id: 'links.create.passwordCheckUnavailable',
    defaultMessage: 'The password strength check could not be loaded. Check your connection and try again, or use a suggested password.',
  },
  useSuggestedPassword: { id: 'links.create.useSuggestedPassword', defaultMessage: 'Use a suggested password' },
  checkingPassword: { id: 'links.create.checkingPassword', defaultMessage: 'Checking...' },
  invalidDownloadLimit: { id: 'links.create.invalidDownloadLimit', defaultMessage: 'Please enter a whole number of downloads from 1 to 10000.' },
});

export const CREATE_LINK_MESSAGES = textsOf(messages);
