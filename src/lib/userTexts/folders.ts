// The folder form's texts (spec section 5, Create/Edit folder, and section 8).

export const FORM_MESSAGES = {
  titleRequired: 'Title is required.',
  passwordMismatch: 'Passwords do not match.',
  invalidDateFormat: 'Invalid date format entered.',
  invalidDateValue: 'Invalid date/time value.',
  invalidDays: 'Enter a whole number of days (at least 1).',
} as const;

export const invalidEmailMessage = (email: string) => `Invalid e-mail address: ${email}`;
