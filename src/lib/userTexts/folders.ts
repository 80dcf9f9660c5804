// The folder form's texts (spec section 5, Create/Edit folder, and section 8).
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  titleRequired: { id: 'folders.form.titleRequired', defaultMessage: 'Title is required.' },
  passwordMismatch: { id: 'folders.form.passwordMismatch', defaultMessage: 'Passwords do not match.' },
  invalidDateFormat: { id: 'folders.form.invalidDateFormat', defaultMessage: 'Invalid date format entered.' },
  invalidDateValue: { id: 'folders.form.invalidDateValue', defaultMessage: 'Invalid date/time value.' },
  invalidDays: { id: 'folders.form.invalidDays', defaultMessage: 'Enter a whole number of days (at least 1).' },
  invalidEmail: { id: 'folders.form.invalidEmail', defaultMessage: 'Invalid e-mail address: {email}' },
});

export const FORM_MESSAGES = textsOf({
  titleRequired: messages.titleRequired,
  passwordMismatch: messages.passwordMismatch,
  invalidDateFormat: messages.invalidDateFormat,
  invalidDateValue: messages.invalidDateValue,
  invalidDays: messages.invalidDays,
});

export const invalidEmailMessage = (email: string) => t(messages.invalidEmail, { email });
