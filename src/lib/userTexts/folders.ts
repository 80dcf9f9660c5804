// The folder form's texts (spec section 5, Create/Edit folder, and section 8), and the create and
// edit screens' own (FOLDER_PAGE_MESSAGES, read in the components with useIntl).
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  titleRequired: { id: 'folders.form.titleRequired', defaultMessage: 'Title is required.' },
  passwordMismatch: { id: 'folders.form.passwordMismatch', defaultMessage: 'Passwords do not match.' },
  invalidDateFormat: { id: 'folders.form.invalidDateFormat', defaultMessage: 'Invalid date format entered.' },
  invalidDateValue: { id: 'folders.form.invalidDateValue', defaultMessage: 'Invalid date/time value.' },
  invalidDays: { id: 'folders.form.invalidDays', defaultMessage: 'Enter a whole number of days (at least 1).' },
  invalidEmail: { id: 'folders.form.invalidEmail', defaultMessage: 'Invalid e-mail address: {email}' },
  saveFailed: { id: 'folders.form.saveFailed', defaultMessage: 'An error occurred while saving. Please check details.' },
});

export const FORM_MESSAGES = textsOf({
  titleRequired: messages.titleRequired,
  passwordMismatch: messages.passwordMismatch,
  invalidDateFormat: messages.invalidDateFormat,
  invalidDateValue: messages.invalidDateValue,
  invalidDays: messages.invalidDays,
  saveFailed: messages.saveFailed,
});

export const invalidEmailMessage = (email: string) => t(messages.invalidEmail, { email });

/** The texts of the create and edit folder screens and their form. */
export const FOLDER_PAGE_MESSAGES = defineMessages({
  loading: { id: 'folders.page.loading', defaultMessage: 'Loading...' },

  createTitle: { id: 'folders.create.title', defaultMessage: 'Create New Upload Folder' },
  createSubtitle: {
    id: 'folders.create.subtitle',
    defaultMessage: 'Uploaders get a link to this folder; their files are encrypted in their browser before they are sent.',
  },
  createSubmit: { id: 'folders.create.submit', defaultMessage: 'Create Folder' },
  created: { id: 'folders.create.done', defaultMessage: 'Folder "{title}" created successfully!' },

  editTitle: { id: 'folders.edit.title', defaultMessage: 'Edit Upload Folder' },
  editTitleWithName: { id: 'folders.edit.titleWithName', defaultMessage: 'Edit Upload Folder: {title}' },
  editSubmit: { id: 'folders.edit.submit', defaultMessage: 'Save Changes' },
  updated: { id: 'folders.edit.done', defaultMessage: 'Folder "{title}" updated successfully!' },
  loadingFolder: { id: 'folders.edit.loading', defaultMessage: 'Loading folder...' },
  idMissing: { id: 'folders.edit.idMissing', defaultMessage: 'Folder ID is missing.' },
  loadFailed: { id: 'folders.edit.loadFailed', defaultMessage: 'Folder not found or could not be loaded.' },
  invalidId: { id: 'folders.edit.invalidId', defaultMessage: 'Invalid Folder ID' },

  createFormLabel: { id: 'folders.form.createLabel', defaultMessage: 'Create folder' },
  editFormLabel: { id: 'folders.form.editLabel', defaultMessage: 'Edit folder' },
  details: { id: 'folders.form.details', defaultMessage: 'Details' },
  title: { id: 'folders.form.title', defaultMessage: 'Title' },
  titleHint: { id: 'folders.form.titleHint', defaultMessage: 'Uploaders see it on the upload page.' },
  description: { id: 'folders.form.description', defaultMessage: 'Description' },
  descriptionHint: { id: 'folders.form.descriptionHint', defaultMessage: 'Optional. Shown to uploaders under the title.' },
  access: { id: 'folders.form.access', defaultMessage: 'Access' },
  isActive: { id: 'folders.form.isActive', defaultMessage: 'Folder is active' },
  isActiveHint: { id: 'folders.form.isActiveHint', defaultMessage: "An inactive folder's upload link accepts no uploads." },
  saving: { id: 'folders.form.saving', defaultMessage: 'Saving...' },
  cancel: { id: 'folders.form.cancel', defaultMessage: 'Cancel' },

  changePassword: { id: 'folders.access.changePassword', defaultMessage: 'Change or remove the link password' },
  protectWithPassword: { id: 'folders.access.protectWithPassword', defaultMessage: 'Protect the upload link with a password' },
  existingPasswordHint: {
    id: 'folders.access.existingPasswordHint',
    defaultMessage: 'The upload link has a password. Leave this unticked to keep it; tick it and leave the fields blank to remove it.',
  },
  passwordHint: { id: 'folders.access.passwordHint', defaultMessage: 'Uploaders must enter this password before they can send files.' },
  newPassword: { id: 'folders.access.newPassword', defaultMessage: 'New link password' },
  password: { id: 'folders.access.password', defaultMessage: 'Link password' },
  blankRemovesPassword: { id: 'folders.access.blankRemovesPassword', defaultMessage: 'Blank removes the password.' },
  shareSeparately: { id: 'folders.access.shareSeparately', defaultMessage: 'Share it with uploaders separately.' },
  confirmPassword: { id: 'folders.access.confirmPassword', defaultMessage: 'Confirm link password' },
  requireEmail: { id: 'folders.access.requireEmail', defaultMessage: 'Require e-mail verification' },
  requireEmailHint: {
    id: 'folders.access.requireEmailHint',
    defaultMessage: 'Uploaders confirm their e-mail address with a 6-digit code before sending files.',
  },
  allowedEmails: { id: 'folders.access.allowedEmails', defaultMessage: 'Allowed e-mails' },
  allowedEmailsExample: {
    id: 'folders.access.allowedEmailsExample',
    defaultMessage: 'anna@example.com, ben@example.org',
    description: 'Placeholder of the allowed e-mails field: two example addresses',
  },
  allowedEmailsHint: { id: 'folders.access.allowedEmailsHint', defaultMessage: 'Comma-separated. Leave empty to let any verified address upload.' },
  mimeCheck: { id: 'folders.access.mimeCheck', defaultMessage: 'Perform MIME check' },
  mimeCheckHint: { id: 'folders.access.mimeCheckHint', defaultMessage: "Check that each uploaded file's content matches its file type." },

  expiration: { id: 'folders.expiration.label', defaultMessage: 'Expiration' },
  neverExpires: { id: 'folders.expiration.never', defaultMessage: 'Never expires' },
  onDate: { id: 'folders.expiration.onDate', defaultMessage: 'On a date' },
  afterDays: { id: 'folders.expiration.afterDays', defaultMessage: 'After a number of days' },
  dateHint: { id: 'folders.expiration.dateHint', defaultMessage: 'In your local time. Uploads are refused after this moment.' },
  days: { id: 'folders.expiration.days', defaultMessage: 'Expires in (days)' },
  daysHint: { id: 'folders.expiration.daysHint', defaultMessage: 'Counted from when you save.' },

  emailMe: { id: 'folders.notifications.emailMe', defaultMessage: 'E-mail me' },
});
