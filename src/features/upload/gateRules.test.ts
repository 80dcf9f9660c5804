import { describe, expect, it } from 'vitest';
import { codeFailureMessage, isSixDigitCode, isValidEmail } from './gateRules.ts';

describe('gate rules', () => {
  it('checks e-mail addresses and 6-digit codes', () => {
    expect(isValidEmail('uploader@example.com')).toBe(true);
    expect(isValidEmail('uploader@')).toBe(false);
    expect(isValidEmail('no at sign')).toBe(false);
    expect(isSixDigitCode('012345')).toBe(true);
    expect(isSixDigitCode('12345')).toBe(false);
    expect(isSixDigitCode('12345a')).toBe(false);
  });

  it('shows an answer without a code as it is, whatever its text says (codes only)', () => {
    expect(codeFailureMessage({ status: 400, data: { detail: 'The code has expired' } })).toBe('The code has expired');
    expect(codeFailureMessage({ status: 400, data: {} })).toBe('Error: 400 - Request failed');
  });

  it("decides by the server's code when the answer has one", () => {
    const answer = (status: number, code: string, detail: string) => ({ status, data: { detail, code } });
    expect(codeFailureMessage(answer(400, 'INVALID_CODE', 'Invalid or expired verification code.'))).toBe('Invalid or expired verification code.');
    expect(codeFailureMessage(answer(404, 'LINK_INVALID', 'Link invalid/expired.'))).toBe('Invalid or expired verification code.');
    expect(codeFailureMessage(answer(400, 'EMAIL_NOT_REQUIRED', 'This link does not use e-mail verification.'))).toBe(
      'This link does not use e-mail verification.',
    );
    expect(codeFailureMessage(answer(429, 'RATE_LIMITED', 'Too many invalid verification codes. Try again in 15 minutes.'))).toBe(
      'Too many invalid verification codes. Try again in 15 minutes.',
    );
  });

  it('shows other failures as the server said them', () => {
    expect(codeFailureMessage({ status: 403, data: { detail: 'This e-mail address is not allowed to upload to this link.' } })).toBe(
      'This e-mail address is not allowed to upload to this link.',
    );
    expect(codeFailureMessage({ status: 429, data: { detail: 'Too many invalid verification codes. Try again in 15 minutes.' } })).toBe(
      'Too many invalid verification codes. Try again in 15 minutes.',
    );
    expect(codeFailureMessage({ status: 'FETCH_ERROR', error: 'x' })).toBe('Network Error: Could not connect to the server.');
  });
});
