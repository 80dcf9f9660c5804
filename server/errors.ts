// Errors that become HTTP answers. Each has a fixed `code`; the status and the client-visible
// detail come from this table (the texts are the contract of docs/api.md and the spec's
// section 8), so handlers throw by code and nothing matches on message text.
export const API_ERRORS = {
  NOT_AUTHENTICATED: { status: 401, detail: 'Not authenticated' },
  SESSION_EXPIRED: { status: 401, detail: 'Session expired' },
  INCORRECT_CREDENTIALS: { status: 401, detail: 'Incorrect username or password' },
  INCORRECT_PASSWORD: { status: 401, detail: 'Incorrect password' },
  INVALID_TOTP_CODE: { status: 401, detail: 'Invalid authentication code' },
  CSRF_FAILED: { status: 403, detail: 'CSRF validation failed' },
  NOT_FOUND: { status: 404, detail: 'Not Found' },
  USERNAME_TAKEN: { status: 409, detail: 'Username already taken' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 400, detail: 'Two-factor authentication is already enabled' },
  TWO_FACTOR_NOT_STARTED: { status: 400, detail: 'Two-factor setup has not been started' },
  INTERNAL: { status: 500, detail: 'Internal Server Error' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/**
 * An error that becomes an HTTP answer: a fixed code to branch on, the status, and the detail the
 * client reads (the error handler sends it as {detail}). Each concern's errors extend this.
 */
export class HttpError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class ApiError extends HttpError<ApiErrorCode> {
  constructor(code: ApiErrorCode) {
    super(code, API_ERRORS[code].status, API_ERRORS[code].detail);
  }
}

/** 429: too many failures of one kind; `retryAfterSeconds` goes into the retry-after header. */
export class RateLimitedError extends HttpError<'RATE_LIMITED'> {
  constructor(
    what: string,
    readonly retryAfterSeconds: number,
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super('RATE_LIMITED', 429, `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
}

/** 422 with the list the client turns into "field: message" pairs. */
export class RequestValidationError extends Error {
  readonly code = 'VALIDATION_FAILED';
  readonly statusCode = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}
