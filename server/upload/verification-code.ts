// E-mail verification codes: 6 digits from the CSPRNG, stored only as an HMAC under a per-code
// random salt. Six digits cannot resist an offline guess, so the hash only keeps codes out of
// plain sight (backups, database dumps); what protects a code is its 10-minute life, the 5 tries
// it allows and the rate limits in front of it.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_PATTERN = /^\d{6}$/;

export function newVerificationCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newCodeSalt(): string {
  return randomBytes(16).toString('hex');
}

export function hashVerificationCode(code: string, salt: string): string {
  return createHmac('sha256', salt).update(code).digest('hex');
}

export function codeMatches(code: string, salt: string, codeHash: string): boolean {
  const actual = Buffer.from(hashVerificationCode(code, salt), 'hex');
  const expected = Buffer.from(codeHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** E-mail addresses are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
