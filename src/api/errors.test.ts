import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../lib/userFacingError.ts';
import { describeApiError } from './errors.ts';

// One case per row of the spec's section 8 "HTTP errors" table, in its order.
describe('describeApiError (spec section 8, HTTP errors)', () => {
  it('403: the detail text', () => {
    expect(describeApiError({ status: 403, data: { detail: 'CSRF validation failed' } })).toEqual({
      code: 'forbidden',
      message: 'CSRF validation failed',
      toast: true,
      status: 403,
    });
  });

  it("403 without detail: 'Forbidden'", () => {
    expect(describeApiError({ status: 403, data: null }).message).toBe('Forbidden');
  });

  it("401 with a detail containing 'Session expired': no toast", () => {
    const result = describeApiError({ status: 401, data: { detail: 'Session expired' } });
    expect(result).toEqual({ code: 'session-expired', message: 'Session expired. Please login again.', toast: false, status: 401 });
  });

  it("401 'Incorrect username or password'", () => {
    const result = describeApiError({ status: 401, data: { detail: 'Incorrect username or password' } });
    expect(result.message).toBe('Incorrect username or password.');
    expect(result.code).toBe('bad-credentials');
    expect(result.toast).toBe(true);
  });

  it("401 'Incorrect password'", () => {
    const result = describeApiError({ status: 401, data: { detail: 'Incorrect password' } });
    expect(result.message).toBe('Incorrect password provided.');
    expect(result.code).toBe('wrong-password');
  });

  it('401 other: the detail', () => {
    expect(describeApiError({ status: 401, data: { detail: 'Invalid authentication code' } }).message).toBe(
      'Invalid authentication code',
    );
  });

  it("401 other without detail: 'Unauthorized or session possibly expired.'", () => {
    const result = describeApiError({ status: 401, data: {} });
    expect(result.message).toBe('Unauthorized or session possibly expired.');
    expect(result.code).toBe('unauthorized');
  });

  it('429: the detail', () => {
    const result = describeApiError({ status: 429, data: { detail: 'Too many failed logins. Try again in 15 minutes.' } });
    expect(result).toMatchObject({ code: 'rate-limited', message: 'Too many failed logins. Try again in 15 minutes.' });
  });

  it("429 without detail: 'Too many requests. Please try again later.'", () => {
    expect(describeApiError({ status: 429, data: undefined }).message).toBe('Too many requests. Please try again later.');
  });

  it('422 with a list detail: field: message pairs joined by semicolons', () => {
    const result = describeApiError({
      status: 422,
      data: {
        detail: [
          { loc: ['body', 'username'], msg: 'Field required' },
          { loc: ['body', 'password'], msg: 'Field required' },
        ],
      },
    });
    expect(result).toMatchObject({ code: 'validation', message: 'username: Field required; password: Field required' });
  });

  it("422 default: 'Request validation failed. Check inputs.'", () => {
    expect(describeApiError({ status: 422, data: {} }).message).toBe('Request validation failed. Check inputs.');
    expect(describeApiError({ status: 422, data: { detail: [] } }).message).toBe('Request validation failed. Check inputs.');
  });

  it('other status with detail: the detail', () => {
    expect(describeApiError({ status: 409, data: { detail: 'Username already taken' } })).toMatchObject({
      code: 'http',
      message: 'Username already taken',
    });
  });

  it("5xx with detail: 'Server Error' plus the detail", () => {
    expect(describeApiError({ status: 500, data: { detail: 'Internal Server Error' } })).toMatchObject({
      code: 'server',
      message: 'Server Error: Internal Server Error',
    });
  });

  it("other status without detail: 'Error: status - message'", () => {
    expect(describeApiError({ status: 404, data: '', statusText: 'Not Found' }).message).toBe('Error: 404 - Not Found');
    expect(describeApiError({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError', statusText: 'Bad Gateway' }).message).toBe(
      'Error: 502 - Bad Gateway',
    );
  });

  it("no response: 'Network Error: Could not connect to the server.'", () => {
    expect(describeApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toEqual({
      code: 'network',
      message: 'Network Error: Could not connect to the server.',
      toast: true,
      status: null,
    });
    expect(describeApiError({ status: 'TIMEOUT_ERROR', error: 'AbortError' }).code).toBe('network');
  });

  it("non-HTTP error: 'Unexpected Error: message'", () => {
    expect(describeApiError(new TypeError('x is undefined')).message).toBe('Unexpected Error: x is undefined');
    expect(describeApiError({ name: 'Error', message: 'thunk failed' }).message).toBe('Unexpected Error: thunk failed');
  });

  it("non-HTTP error without a message: 'An unknown error occurred.'", () => {
    expect(describeApiError(new Error('')).message).toBe('An unknown error occurred.');
  });

  it("default: 'An unexpected error occurred.'", () => {
    expect(describeApiError(undefined).message).toBe('An unexpected error occurred.');
    expect(describeApiError(42).message).toBe('An unexpected error occurred.');
  });

  it("the app's own catalogue errors keep their exact text and code", () => {
    const result = describeApiError(new UserFacingError('login-unexpected-response', 'Login failed: Unexpected server response structure.'));
    expect(result).toEqual({
      code: 'login-unexpected-response',
      message: 'Login failed: Unexpected server response structure.',
      toast: true,
      status: null,
    });
  });
});
