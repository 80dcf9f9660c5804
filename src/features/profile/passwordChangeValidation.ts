// Change Login Password rules (spec section 5, Password change), messages exact.

export interface PasswordChangeValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const NEW_PASSWORD_MIN_LENGTH = 8;

export const PASSWORD_MISMATCH = 'New passwords do not match.';

/** Submit stays disabled until all three fields are filled and the new ones match. */
export function canSubmitPasswordChange(values: PasswordChangeValues): boolean {
  return Boolean(values.oldPassword && values.newPassword && values.confirmPassword) && values.newPassword === values.confirmPassword;
}

/** The first broken rule's message, or null when the change may be sent. */
export function passwordChangeError(values: PasswordChangeValues): string | null {
  if (values.newPassword !== values.confirmPassword) return PASSWORD_MISMATCH;
  if (values.newPassword.length < NEW_PASSWORD_MIN_LENGTH) return `New password must be at least ${NEW_PASSWORD_MIN_LENGTH} characters long.`;
  if (values.newPassword === values.oldPassword) return 'New password cannot be the same as the old password.';
  return null;
}
