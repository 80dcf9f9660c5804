import { describe, expect, it } from 'vitest';
import { canSubmitPasswordChange, passwordChangeError } from './passwordChangeValidation.ts';

describe('password change rules (spec section 5, Password change)', () => {
  it('new and confirmation must match', () => {
    expect(passwordChangeError({ oldPassword: 'old-pass-1', newPassword: 'new-pass-1', confirmPassword: 'new-pass-2' })).toBe(
      'New passwords do not match.',
    );
  });

  it('new password at least 8 characters', () => {
    expect(passwordChangeError({ oldPassword: 'old-pass-1', newPassword: 'short', confirmPassword: 'short' })).toBe(
      'New password must be at least 8 characters long.',
    );
  });

  it('new must differ from old', () => {
    expect(passwordChangeError({ oldPassword: 'same-pass-1', newPassword: 'same-pass-1', confirmPassword: 'same-pass-1' })).toBe(
      'New password cannot be the same as the old password.',
    );
  });

  it('a valid change has no error', () => {
    expect(passwordChangeError({ oldPassword: 'old-pass-1', newPassword: 'new-pass-1', confirmPassword: 'new-pass-1' })).toBeNull();
  });

  it('submit is possible only with all three filled and matching', () => {
    expect(canSubmitPasswordChange({ oldPassword: '', newPassword: 'a', confirmPassword: 'a' })).toBe(false);
    expect(canSubmitPasswordChange({ oldPassword: 'o', newPassword: '', confirmPassword: '' })).toBe(false);
    expect(canSubmitPasswordChange({ oldPassword: 'o', newPassword: 'a', confirmPassword: 'b' })).toBe(false);
    expect(canSubmitPasswordChange({ oldPassword: 'o', newPassword: 'a', confirmPassword: 'a' })).toBe(true);
  });
});
