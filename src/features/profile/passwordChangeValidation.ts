// Change Login Password rules (spec section 5, Password change), messages exact.
import { t } from '../../i18n/language.ts';
import { PROFILE_MESSAGES } from './messages.ts';

export interface PasswordChangeValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const NEW_PASSWORD_MIN_LENGTH = 8;

/** 'New passwords do not match.' in the current language. */
export const passwordMismatchText = () => t(PROFILE_MESSAGES.passwordMismatch);

/** Submit stays disabled until all three fields are filled and the new ones match. */
export function canSubmitPasswordChange(values: PasswordChangeValues): boolean {
  return Boolean(values.oldPassword && values.newPassword && values.confirmPassword) && values.newPassword === values.confirmPassword;
}

/** The first broken rule's message, or null when the change may be sent. */
export function passwordChangeError(values: PasswordChangeValues): string | null {
  if (values.newPassword !== values.confirmPassword) return passwordMismatchText();
  if (values.newPassword.length < NEW_PASSWORD_MIN_LENGTH) return t(PROFILE_MESSAGES.passwordTooShort, { min: NEW_PASSWORD_MIN_LENGTH });
  if (values.newPassword === values.oldPassword) return t(PROFILE_MESSAGES.passwordSameAsOld);
  return null;
}
