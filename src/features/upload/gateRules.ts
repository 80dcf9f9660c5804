// The upload page's gate rules: what an e-mail address and a code must look like, and which text a
// failed code verification shows.
import { describeApiError, saysCodeInvalidOrExpired } from '../../api/errors.ts';
import { GATE_MESSAGES } from '../../lib/userTexts.ts';

// What browsers accept as type="email" (WHATWG), so the page refuses what the server would.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function isSixDigitCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}

/**
 * A failed verify-code call: an answer saying the code is invalid or expired becomes the spec's
 * fixed text (decided by the server's code, api/errors.ts), anything else is shown as the server
 * said it (or 'Code verification failed.'). Rate limiting (429 'Too many invalid verification
 * codes. ...') keeps its own text: it tells the uploader to wait.
 */
export function codeFailureMessage(error: unknown): string {
  const described = describeApiError(error);
  if (saysCodeInvalidOrExpired(described)) return GATE_MESSAGES.invalidOrExpiredCode;
  return described.message || GATE_MESSAGES.codeVerificationFailed;
}
