// Random tokens and their digests.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The CSRF token bound to a session: derived from the session token (HMAC, keyed by it), so that
 * nothing stored lets anyone compute it, and a browser holding the session can always be given
 * it again. base64url, 43 characters like every other token.
 */
export function csrfTokenForSession(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('sealdrop/csrf/v1').digest('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison (for secrets compared with a value the client sent). */
export function tokensEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
