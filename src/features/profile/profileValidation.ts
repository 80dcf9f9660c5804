// Profile Information rules (spec section 5, Profile): only changed fields are sent; a blank e-mail
// is sent as null (removes it); nothing changed means nothing is sent.

import type { ProfileUpdateRequest, User } from '../../api/types.ts';
import { t } from '../../i18n/language.ts';
import { PROFILE_MESSAGES } from './messages.ts';

export interface ProfileFormValues {
  username: string;
  email: string;
  currentPassword: string;
}

export type ProfileField = 'username' | 'email' | 'currentPassword';

/** What to send: the changes, with the current password to turn into its authentication secret first. */
export interface ProfileChanges {
  currentPassword: string;
  changes: Omit<ProfileUpdateRequest, 'current_auth_secret'>;
}

export type ProfileUpdatePlan =
  | { ok: true; request: ProfileChanges }
  | { ok: false; message: string; field: ProfileField | null; severity: 'error' | 'info' };

export const USERNAME_MIN_LENGTH = 3;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function planProfileUpdate(user: Pick<User, 'username' | 'email'>, values: ProfileFormValues): ProfileUpdatePlan {
  const username = values.username.trim();
  const email = values.email.trim() === '' ? null : values.email.trim();

  if (!username) return { ok: false, message: t(PROFILE_MESSAGES.usernameRequired), field: 'username', severity: 'error' };
  if (username.length < USERNAME_MIN_LENGTH) {
    return { ok: false, message: t(PROFILE_MESSAGES.usernameTooShort, { min: USERNAME_MIN_LENGTH }), field: 'username', severity: 'error' };
  }
  if (email !== null && !EMAIL_SHAPE.test(email)) {
    return { ok: false, message: t(PROFILE_MESSAGES.invalidEmail), field: 'email', severity: 'error' };
  }

  const changes: Omit<ProfileUpdateRequest, 'current_auth_secret'> = {};
  if (username !== user.username) changes.username = username;
  if (email !== (user.email ?? null)) changes.email = email;
  if (Object.keys(changes).length === 0) {
    return { ok: false, message: t(PROFILE_MESSAGES.noChanges), field: null, severity: 'info' };
  }

  if (!values.currentPassword) {
    return { ok: false, message: t(PROFILE_MESSAGES.passwordRequired), field: 'currentPassword', severity: 'error' };
  }
  return { ok: true, request: { currentPassword: values.currentPassword, changes } };
}
