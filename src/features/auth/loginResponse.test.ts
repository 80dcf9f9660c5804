import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { interpretCodeStep, interpretPasswordStep, sanitizeCodeInput } from './loginResponse.ts';

const alice = { id: 1, username: 'alice', email: null, is_2fa_enabled: false, public_key_spki: null, org_role: 'admin' as const, language: null, has_password: true };

describe('login protocol (spec section 4, Login)', () => {
  it('a response with a user signs in directly', () => {
    expect(interpretPasswordStep({ user: alice }, 'alice')).toEqual({ kind: 'signed-in', user: alice });
  });

  it("'OTP code required' moves to the code step with the echoed username", () => {
    expect(interpretPasswordStep({ message: 'OTP code required', username: 'Alice' }, 'alice')).toEqual({
      kind: 'code-required',
      username: 'Alice',
    });
    expect(interpretPasswordStep({ message: 'OTP code required' }, 'alice')).toEqual({ kind: 'code-required', username: 'alice' });
  });

  it('any other shape after the password step is an error with the exact text', () => {
    for (const response of [{}, { message: 'Welcome' }, null, 'ok', { user: 'alice' }]) {
      expect(() => interpretPasswordStep(response, 'alice')).toThrow(
        new UserFacingError('login-unexpected-response', 'Login failed: Unexpected server response structure.'),
      );
    }
  });

  it('the code step accepts only a user', () => {
    expect(interpretCodeStep({ user: alice })).toEqual(alice);
    expect(() => interpretCodeStep({ message: 'OTP code required', username: 'alice' })).toThrow(
      'Login failed: Invalid response after OTP submission.',
    );
  });

  it('code input keeps digits only, at most six', () => {
    expect(sanitizeCodeInput('12a 34-5678')).toBe('123456');
    expect(sanitizeCodeInput('abc')).toBe('');
  });
});
