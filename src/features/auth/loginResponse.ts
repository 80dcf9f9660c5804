// The login protocol of spec section 4: a response with a user signs in; the message
// 'OTP code required' (password step only) asks for the second factor; anything else is an error.
// The message itself is read in api/errors.ts, with every other server text.

import { asksForOtpCode } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';
import { t } from '../../i18n/language.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { AUTH_MESSAGES } from './messages.ts';

export type LoginErrorCode = 'login-unexpected-response' | 'login-invalid-otp-response';

export type LoginOutcome = { kind: 'signed-in'; user: User } | { kind: 'code-required'; username: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The signed-in user a login response carries, or null; the auth slice and the page share this test. */
export function userFromLoginResponse(response: unknown): User | null {
  if (!isRecord(response)) return null;
  const { user } = response;
  return isRecord(user) && typeof user.username === 'string' ? (user as unknown as User) : null;
}

/** Interprets the answer of POST /auth/token; `typedUsername` is the fallback if none is echoed. */
export function interpretPasswordStep(response: unknown, typedUsername: string): LoginOutcome {
  if (isRecord(response)) {
    const user = userFromLoginResponse(response);
    if (user) return { kind: 'signed-in', user };
    if (asksForOtpCode(response)) {
      const username = typeof response.username === 'string' && response.username ? response.username : typedUsername;
      return { kind: 'code-required', username };
    }
  }
  throw new UserFacingError<LoginErrorCode>('login-unexpected-response', t(AUTH_MESSAGES.unexpectedResponse));
}

/** Interprets the answer of POST /auth/token/2fa: only a user is acceptable. */
export function interpretCodeStep(response: unknown): User {
  const user = userFromLoginResponse(response);
  if (user) return user;
  throw new UserFacingError<LoginErrorCode>('login-invalid-otp-response', t(AUTH_MESSAGES.invalidOtpResponse));
}

export const SIX_DIGITS = /^\d{6}$/;

/** Keeps only digits, at most six: what an authenticator code field accepts while typing. */
export function sanitizeCodeInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}
