import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../lib/userFacingError.ts';
import { answeredWith, asksForOtpCode, describeApiError, saysCodeInvalidOrExpired } from './errors.ts';

// One case per row of the spec's section 8 "HTTP errors" table, in its order. These answers carry
// no code (an older server, a proxy): the mapping falls back to the status and the spec's texts.
describe('describeApiError (spec section 8, HTTP errors)', () => {
  it('403: the detail text', () => {
    expect(describeApiError({ status: 403, data: { detail: 'CSRF validation failed' } })).toEqual({
      code: 'forbidden',
      message: 'CSRF validation failed',
      toast: true,
      status: 403,
      serverCode: null,
      appCode: null,
    });
  });

  it("403 without detail: 'Forbidden'", () => {
    expect(describeApiError({ status: 403, data: null }).message).toBe('Forbidden');
  });

  it('401 SESSION_EXPIRED: no toast', () => {
    const result = describeApiError({ status: 401, data: { detail: 'Session expired', code: 'SESSION_EXPIRED' } });
    expect(result).toEqual({
      code: 'session-expired',
      message: 'Session expired. Please login again.',
      toast: false,
      status: 401,
      serverCode: 'SESSION_EXPIRED',
      appCode: null,
    });
  });

  it('401 without a code is mapped by its status, whatever its detail says', () => {
    for (const detail of ['Session expired', 'Incorrect username or password', 'Incorrect password']) {
      const result = describeApiError({ status: 401, data: { detail } });
      expect(result, detail).toMatchObject({ code: 'unauthorized', message: detail, toast: true });
    }
  });

  it("401 INCORRECT_CREDENTIALS: 'Incorrect username or password.'", () => {
    const result = describeApiError({ status: 401, data: { detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' } });
    expect(result.message).toBe('Incorrect username or password.');
    expect(result.code).toBe('bad-credentials');
    expect(result.toast).toBe(true);
  });

  it("401 INCORRECT_PASSWORD: 'Incorrect password provided.'", () => {
    const result = describeApiError({ status: 401, data: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } });
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
      serverCode: null,
      appCode: null,
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
      code: 'app',
      appCode: 'login-unexpected-response',
      message: 'Login failed: Unexpected server response structure.',
      toast: true,
      status: null,
      serverCode: null,
    });
  });

  it('the code is a closed union: a comparison with a code it cannot have fails to compile', () => {
    const described = describeApiError(new UserFacingError('keys-invalid', 'x'));
    // @ts-expect-error 'keys-invalid' is an app code (appCode), never an ApiErrorCode
    expect(described.code === 'keys-invalid').toBe(false);
    expect(described.appCode).toBe('keys-invalid');
  });
});

// Every code of docs/api.md "Error codes", with its status and detail as the server sends them.
const SERVER_ANSWERS: ReadonlyArray<{ code: string; status: number; detail: unknown }> = [
  { code: 'NOT_AUTHENTICATED', status: 401, detail: 'Not authenticated' },
  { code: 'SESSION_EXPIRED', status: 401, detail: 'Session expired' },
  { code: 'INCORRECT_CREDENTIALS', status: 401, detail: 'Incorrect username or password' },
  { code: 'INCORRECT_PASSWORD', status: 401, detail: 'Incorrect password' },
  { code: 'INVALID_TOTP_CODE', status: 401, detail: 'Invalid authentication code' },
  { code: 'CSRF_FAILED', status: 403, detail: 'CSRF validation failed' },
  { code: 'USERNAME_TAKEN', status: 409, detail: 'Username already taken' },
  { code: 'TWO_FACTOR_ALREADY_ENABLED', status: 400, detail: 'Two-factor authentication is already enabled' },
  { code: 'TWO_FACTOR_NOT_STARTED', status: 400, detail: 'Two-factor setup has not been started' },
  { code: 'VALIDATION_FAILED', status: 422, detail: [{ loc: ['body', 'username'], msg: 'Field required' }] },
  { code: 'RATE_LIMITED', status: 429, detail: 'Too many failed login attempts. Try again in 15 minutes.' },
  { code: 'PUBLIC_KEY_NOT_FOUND', status: 404, detail: 'Public key not found' },
  { code: 'ENCRYPTED_KEY_NOT_FOUND', status: 404, detail: 'Encrypted key data not found' },
  { code: 'FOLDER_NOT_FOUND', status: 404, detail: 'Folder not found' },
  { code: 'FILE_NOT_FOUND', status: 404, detail: 'File not found' },
  { code: 'RANGE_NOT_SATISFIABLE', status: 416, detail: 'Requested range not satisfiable' },
  { code: 'EXPORT_FILES_NOT_FOUND', status: 404, detail: 'Files not found in this folder: 12, 13' },
  { code: 'EXPORT_BLOB_MISSING', status: 404, detail: 'The stored data of these files is missing: 12' },
  { code: 'LINK_NOT_FOUND', status: 404, detail: 'Download link not found.' },
  { code: 'LINK_EXPIRED', status: 410, detail: 'This link has expired.' },
  { code: 'LINK_PASSWORD_REQUIRED', status: 401, detail: 'Password required' },
  { code: 'LINK_PASSWORD_REQUIRED', status: 401, detail: 'Link password required.' },
  { code: 'LINK_WITHOUT_PASSWORD', status: 400, detail: 'This link is not password protected.' },
  { code: 'LINK_INVALID', status: 404, detail: 'Link invalid/expired.' },
  { code: 'INCORRECT_LINK_PASSWORD', status: 401, detail: 'Incorrect password' },
  { code: 'EMAIL_VERIFICATION_REQUIRED', status: 401, detail: 'E-mail verification required.' },
  { code: 'EMAIL_NOT_ALLOWED', status: 403, detail: 'This e-mail address is not allowed to upload to this link.' },
  { code: 'INVALID_CODE', status: 400, detail: 'Invalid or expired verification code.' },
  { code: 'EMAIL_NOT_REQUIRED', status: 400, detail: 'This link does not use e-mail verification.' },
  { code: 'PUBLIC_KEY_MISSING', status: 404, detail: 'Recipient public key is missing or not configured.' },
  { code: 'ARRAY_LENGTH_MISMATCH', status: 400, detail: 'Mismatch in lengths of file data arrays provided for upload' },
  { code: 'NOT_MULTIPART', status: 400, detail: 'The upload must be a multipart/form-data request.' },
  { code: 'MALFORMED_MULTIPART', status: 400, detail: 'Malformed multipart request.' },
  { code: 'NO_FILES', status: 400, detail: 'No files were provided.' },
  { code: 'TOO_MANY_PARTS', status: 413, detail: 'Too many files or fields in one request.' },
  { code: 'FILE_TOO_LARGE', status: 413, detail: 'File too large (max 5120 MB)' },
  { code: 'INTERNAL', status: 500, detail: 'Internal Server Error' },
  { code: 'BAD_REQUEST', status: 400, detail: 'Bad Request' },
  { code: 'NOT_FOUND', status: 404, detail: 'Not Found' },
  { code: 'PAYLOAD_TOO_LARGE', status: 413, detail: 'Request body is too large' },
  { code: 'URI_TOO_LONG', status: 414, detail: 'URI Too Long' },
  { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, detail: 'Unsupported Media Type: application/xml' },
  { code: 'EXPECTATION_FAILED', status: 417, detail: 'Expectation Failed' },
  { code: 'HEADERS_TOO_LARGE', status: 431, detail: 'Request Header Fields Too Large' },
];

describe('describeApiError by the server\'s code (docs/api.md, "Error codes")', () => {
  // The 401 codes with a row of their own are the next test's: without a code their answer is a plain 401.
  const ROWS_OF_THEIR_OWN = new Set(['SESSION_EXPIRED', 'INCORRECT_CREDENTIALS', 'INCORRECT_PASSWORD', 'INCORRECT_LINK_PASSWORD', 'SIGN_IN_UPGRADE_REQUIRED']);
  it.each(SERVER_ANSWERS.filter(({ code }) => !ROWS_OF_THEIR_OWN.has(code)))('$code ($status) maps to what its answer meant before codes, and keeps the code', ({ code, status, detail }) => {
    const withCode = describeApiError({ status, data: { detail, code } });
    const withoutCode = describeApiError({ status, data: { detail } });
    expect(withCode).toEqual({ ...withoutCode, serverCode: code });
  });

  it("the spec's 401 rows by code: the user's texts are the same", () => {
    expect(describeApiError({ status: 401, data: { detail: 'Session expired', code: 'SESSION_EXPIRED' } })).toEqual({
      code: 'session-expired',
      message: 'Session expired. Please login again.',
      toast: false,
      status: 401,
      serverCode: 'SESSION_EXPIRED',
      appCode: null,
    });
    expect(describeApiError({ status: 401, data: { detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' } })).toMatchObject({
      code: 'bad-credentials',
      message: 'Incorrect username or password.',
    });
    for (const code of ['INCORRECT_PASSWORD', 'INCORRECT_LINK_PASSWORD']) {
      expect(describeApiError({ status: 401, data: { detail: 'Incorrect password', code } })).toMatchObject({
        code: 'wrong-password',
        message: 'Incorrect password provided.',
      });
    }
  });

  it('decides by the code, never by the text, when the answer has a code', () => {
    // A detail that would read as another row: the code wins.
    expect(describeApiError({ status: 401, data: { detail: 'Incorrect password', code: 'INVALID_TOTP_CODE' } })).toMatchObject({
      code: 'unauthorized',
      message: 'Incorrect password',
    });
    expect(describeApiError({ status: 401, data: { detail: 'Your session has ended', code: 'SESSION_EXPIRED' } })).toMatchObject({
      code: 'session-expired',
      message: 'Session expired. Please login again.',
    });
    expect(describeApiError({ status: 401, data: { detail: 'Session expired?', code: 'NOT_AUTHENTICATED' } }).code).toBe('unauthorized');
  });

  it('words the refusals for want of room itself, by code: what happened and what to do', () => {
    expect(describeApiError({ status: 413, data: { detail: "This upload would pass the folder's storage or file limit.", code: 'FOLDER_QUOTA_EXCEEDED' } })).toEqual({
      code: 'http',
      message: 'This folder cannot take more files right now. Contact the person who sent you the link.',
      toast: true,
      status: 413,
      serverCode: 'FOLDER_QUOTA_EXCEEDED',
      appCode: null,
    });
    expect(describeApiError({ status: 507, data: { detail: 'anything', code: 'STORAGE_FULL' } })).toMatchObject({
      code: 'server',
      message: 'The server has no room for these files right now. Try again later, or contact the person who sent you the link.',
      serverCode: 'STORAGE_FULL',
    });
    // Another 413 keeps its own detail (the file size limit).
    expect(describeApiError({ status: 413, data: { detail: 'File too large (max 5120 MB)', code: 'FILE_TOO_LARGE' } }).message).toBe('File too large (max 5120 MB)');
  });

  it("a code the client does not know takes its status's row", () => {
    expect(describeApiError({ status: 403, data: { detail: 'Nope', code: 'SOMETHING_NEW' } })).toEqual({
      code: 'forbidden',
      message: 'Nope',
      toast: true,
      status: 403,
      serverCode: 'SOMETHING_NEW',
      appCode: null,
    });
    expect(describeApiError({ status: 503, data: { code: 'SOMETHING_NEW' } }).message).toBe('Error: 503 - Request failed');
  });
});

describe('answeredWith', () => {
  it('compares the server code; an answer without one counts by its status', () => {
    const keyMissing = describeApiError({ status: 404, data: { detail: 'Recipient public key is missing or not configured.', code: 'PUBLIC_KEY_MISSING' } });
    const linkInvalid = describeApiError({ status: 404, data: { detail: 'Link invalid/expired.', code: 'LINK_INVALID' } });
    const uncoded = describeApiError({ status: 404, data: { detail: 'Not here' } });
    expect(answeredWith(keyMissing, 'PUBLIC_KEY_MISSING', 404)).toBe(true);
    expect(answeredWith(linkInvalid, 'PUBLIC_KEY_MISSING', 404)).toBe(false);
    expect(answeredWith(uncoded, 'PUBLIC_KEY_MISSING', 404)).toBe(true);
    expect(answeredWith(uncoded, 'PUBLIC_KEY_MISSING')).toBe(false);
    expect(answeredWith(describeApiError({ status: 'FETCH_ERROR', error: 'x' }), 'PUBLIC_KEY_MISSING', 404)).toBe(false);
  });
});

  it("takes only codes of the contract's list (contract/errors.ts), so a misspelt code fails to compile", () => {
    const keyMissing = describeApiError({ status: 404, data: { detail: 'Recipient public key is missing or not configured.', code: 'PUBLIC_KEY_MISSING' } });
    // @ts-expect-error PUBLIC_KEY_MISSNG is no code of the contract
    expect(answeredWith(keyMissing, 'PUBLIC_KEY_MISSNG', 404)).toBe(false);
  });

describe('saysCodeInvalidOrExpired (spec section 5, upload page)', () => {
  it('by code: a wrong or used-up code and a gone link say so; nothing else does', () => {
    const says = (status: number, code: string, detail: string) => saysCodeInvalidOrExpired(describeApiError({ status, data: { detail, code } }));
    expect(says(400, 'INVALID_CODE', 'Invalid or expired verification code.')).toBe(true);
    expect(says(404, 'LINK_INVALID', 'Link invalid/expired.')).toBe(true);
    expect(says(403, 'EMAIL_NOT_ALLOWED', 'This e-mail address is not allowed to upload to this link.')).toBe(false);
    expect(says(400, 'EMAIL_NOT_REQUIRED', 'This link does not use e-mail verification.')).toBe(false);
    expect(says(429, 'RATE_LIMITED', 'Too many invalid verification codes. Try again in 15 minutes.')).toBe(false);
  });

  it('never by the message text: another code, or no code, whose message says "expired" or "invalid" does not count', () => {
    const says = (status: number, code: string, detail: string) => saysCodeInvalidOrExpired(describeApiError({ status, data: { detail, code } }));
    expect(says(400, 'EMAIL_NOT_REQUIRED', 'Your session has expired; the code is invalid.')).toBe(false);
    expect(saysCodeInvalidOrExpired(describeApiError({ status: 400, data: { detail: 'The code has expired' } }))).toBe(false);
    expect(saysCodeInvalidOrExpired(describeApiError({ status: 400, data: { detail: 'Nope' } }))).toBe(false);
    expect(saysCodeInvalidOrExpired(describeApiError({ status: 429, data: { detail: 'Too many invalid codes.' } }))).toBe(false);
  });
});

describe('asksForOtpCode (spec section 4, login)', () => {
  it("is the password step's 200 answer with the message 'OTP code required'", () => {
    expect(asksForOtpCode({ message: 'OTP code required', username: 'alice' })).toBe(true);
    expect(asksForOtpCode({ message: 'otp code required' })).toBe(false);
    expect(asksForOtpCode({ user: { username: 'alice' } })).toBe(false);
    expect(asksForOtpCode(null)).toBe(false);
  });
});
