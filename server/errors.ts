// Errors that become HTTP answers. Each has a fixed `code` from the contract's one list
// (contract/errors.ts, API_ERROR_CODES), a status and the client-visible detail (the texts are the
// contract of docs/api.md and the spec's section 8), so handlers throw by code and nothing matches
// on message text. Every error answer carries both: {detail, code} (errorBody below), the client
// branching on the code. A concern declares its errors with defineHttpError or httpErrorTable.
import { CodedError } from '../contract/coded-error.ts';
import type { ErrorResponse, ServerErrorCode, ValidationIssue } from '../contract/errors.ts';
import { english } from './i18n/intl.ts';
import { defineMessages, type LocalisedText, type MessageDescriptor } from './i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  RATE_LIMITED: {
    id: 'server.api.rateLimited',
    defaultMessage: 'Too many {what}. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
    description: 'what: a plural noun phrase such as "failed password attempts"',
  },
  NOT_AUTHENTICATED: { id: 'server.api.notAuthenticated', defaultMessage: 'Not authenticated' },
  SESSION_EXPIRED: { id: 'server.api.sessionExpired', defaultMessage: 'Session expired' },
  INCORRECT_CREDENTIALS: { id: 'server.api.incorrectCredentials', defaultMessage: 'Incorrect username or password' },
  INCORRECT_PASSWORD: { id: 'server.api.incorrectPassword', defaultMessage: 'Incorrect password' },
  SIGN_IN_UPGRADE_REQUIRED: { id: 'server.api.signInUpgradeRequired', defaultMessage: 'This account signs in with its password once more, to move to the new sign-in' },
  OLD_SCHEME_SIGN_IN_CLOSED: { id: 'server.api.oldSchemeSignInClosed', defaultMessage: 'This server no longer accepts passwords at sign-in' },
  LOGIN_ALREADY_UPGRADED: { id: 'server.api.loginAlreadyUpgraded', defaultMessage: 'This account already uses the new sign-in' },
  LOGIN_CHANGED: { id: 'server.api.loginChanged', defaultMessage: 'The sign-in of this account changed meanwhile; nothing was stored' },
  KDF_PARAMS_NOT_BOUND: { id: 'server.api.kdfParamsNotBound', defaultMessage: "The new KDF parameters must be bound to the account's username" },
  KEY_PAIR_CHANGED: { id: 'server.api.keyPairChanged', defaultMessage: 'The key pair on the server changed meanwhile; nothing was stored' },
  INVALID_TOTP_CODE: { id: 'server.api.invalidTotpCode', defaultMessage: 'Invalid authentication code' },
  CSRF_FAILED: { id: 'server.api.csrfFailed', defaultMessage: 'CSRF validation failed' },
  NOT_FOUND: { id: 'server.api.notFound', defaultMessage: 'Not Found' },
  USERNAME_TAKEN: { id: 'server.api.usernameTaken', defaultMessage: 'Username already taken' },
  TWO_FACTOR_ALREADY_ENABLED: { id: 'server.api.twoFactorAlreadyEnabled', defaultMessage: 'Two-factor authentication is already enabled' },
  TWO_FACTOR_NOT_STARTED: { id: 'server.api.twoFactorNotStarted', defaultMessage: 'Two-factor setup has not been started' },
  INTERNAL: { id: 'server.api.internal', defaultMessage: 'Internal Server Error' },
  FILE_NOT_FOUND: { id: 'server.api.fileNotFound', defaultMessage: 'File not found' },
});

/** The status and detail of one code, as the tables below give them. */
export interface HttpErrorEntry {
  readonly status: number;
  readonly detail: MessageDescriptor;
}

export const API_ERRORS = {
  NOT_AUTHENTICATED: { status: 401, detail: details.NOT_AUTHENTICATED },
  SESSION_EXPIRED: { status: 401, detail: details.SESSION_EXPIRED },
  INCORRECT_CREDENTIALS: { status: 401, detail: details.INCORRECT_CREDENTIALS },
  INCORRECT_PASSWORD: { status: 401, detail: details.INCORRECT_PASSWORD },
  SIGN_IN_UPGRADE_REQUIRED: { status: 401, detail: details.SIGN_IN_UPGRADE_REQUIRED },
  OLD_SCHEME_SIGN_IN_CLOSED: { status: 403, detail: details.OLD_SCHEME_SIGN_IN_CLOSED },
  LOGIN_ALREADY_UPGRADED: { status: 409, detail: details.LOGIN_ALREADY_UPGRADED },
  LOGIN_CHANGED: { status: 409, detail: details.LOGIN_CHANGED },
  KDF_PARAMS_NOT_BOUND: { status: 422, detail: details.KDF_PARAMS_NOT_BOUND },
  KEY_PAIR_CHANGED: { status: 409, detail: details.KEY_PAIR_CHANGED },
  INVALID_TOTP_CODE: { status: 401, detail: details.INVALID_TOTP_CODE },
  CSRF_FAILED: { status: 403, detail: details.CSRF_FAILED },
  NOT_FOUND: { status: 404, detail: details.NOT_FOUND },
  USERNAME_TAKEN: { status: 409, detail: details.USERNAME_TAKEN },
  TWO_FACTOR_ALREADY_ENABLED: { status: 400, detail: details.TWO_FACTOR_ALREADY_ENABLED },
  TWO_FACTOR_NOT_STARTED: { status: 400, detail: details.TWO_FACTOR_NOT_STARTED },
  INTERNAL: { status: 500, detail: details.INTERNAL },
} as const satisfies { [Code in ServerErrorCode]?: HttpErrorEntry };

export type ApiErrorCode = keyof typeof API_ERRORS;

/**
 * Codes of refusals that no typed error of ours raises: Fastify (body parsing, body limit, the
 * router), Node's HTTP parser and plugins answer with a status and their own text. One code per
 * status, so a client branches on it as on any other code; the detail stays the status text or
 * the framework's message.
 */
export const PROTOCOL_ERROR_CODES = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  411: 'LENGTH_REQUIRED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  417: 'EXPECTATION_FAILED',
  431: 'HEADERS_TOO_LARGE',
} as const satisfies Record<number, ServerErrorCode>;

/** Any other 4xx status a framework error may carry (none is known to occur). */
export const OTHER_CLIENT_ERROR_CODE = 'CLIENT_ERROR' satisfies ServerErrorCode;

/** The code of a framework refusal with this status: 5xx are INTERNAL (their detail is hidden too). */
export function protocolErrorCode(status: number): ServerErrorCode {
  if (status >= 500) return 'INTERNAL';
  return (PROTOCOL_ERROR_CODES as Record<number, ServerErrorCode>)[status] ?? OTHER_CLIENT_ERROR_CODE;
}

/** The JSON body of every error answer: the detail the client shows and the code it branches on. */
export type ErrorBody = ErrorResponse;

export function errorBody(code: string, detail: string | ValidationIssue[]): ErrorBody {
  return { detail, code };
}

/**
 * An error that becomes an HTTP answer: a fixed code to branch on, the status, and the detail the
 * client reads (the error handler sends {detail, code}). Each concern's errors extend this, mostly
 * through defineHttpError or httpErrorTable.
 */
export class HttpError<Code extends ServerErrorCode = ServerErrorCode> extends CodedError<Code> {
  /** The detail in English: the contract's text (docs/api.md), logs and tests. */
  readonly detail: string;
  /** The detail as a message, answered in the request's language (plugins/error-handler.ts). */
  readonly detailText: LocalisedText;

  constructor(
    code: Code,
    readonly statusCode: number,
    detail: MessageDescriptor | LocalisedText,
    options?: ErrorOptions,
  ) {
    const text: LocalisedText = 'message' in detail ? detail : { message: detail };
    const inEnglish = english(text);
    super(code, inEnglish, options);
    this.detail = inEnglish;
    this.detailText = text;
  }
}

/** The constructor defineHttpError returns: the detail's arguments, if it has any. */
export type HttpErrorClass<Code extends ServerErrorCode, Args extends unknown[]> = new (...args: Args) => HttpError<Code>;

/**
 * The base of an error with one code, status and detail:
 * `class FileNotFoundError extends defineHttpError('FILE_NOT_FOUND', 404, details.FILE_NOT_FOUND) {}`.
 * A detail that names a value is a function, whose parameters become the constructor's:
 * `defineHttpError('FILE_TOO_LARGE', 413, (maxBytes: number) => ...)`, thrown as `new X(maxBytes)`.
 */
export function defineHttpError<const Code extends ServerErrorCode, Args extends unknown[] = []>(
  code: Code,
  status: number,
  detail: MessageDescriptor | ((...args: Args) => LocalisedText),
): HttpErrorClass<Code, Args> {
  return class extends HttpError<Code> {
    constructor(...args: Args) {
      super(code, status, typeof detail === 'function' ? detail(...args) : detail);
    }
  };
}

/**
 * The base of the errors of a table of codes, thrown by code: `new ApiError('NOT_AUTHENTICATED')`.
 * `options.cause` keeps what a dependency answered for the log; the client sees only the detail.
 */
export function httpErrorTable<const Code extends ServerErrorCode>(
  table: Readonly<Record<Code, HttpErrorEntry>>,
): new (code: Code, options?: ErrorOptions) => HttpError<Code> {
  return class extends HttpError<Code> {
    constructor(code: Code, options?: ErrorOptions) {
      super(code, table[code].status, table[code].detail, options);
    }
  };
}

export class ApiError extends httpErrorTable(API_ERRORS) {}

/** 429: too many failures of one kind; `retryAfterSeconds` goes into the retry-after header. */
export class RateLimitedError extends HttpError<'RATE_LIMITED'> {
  constructor(
    what: MessageDescriptor,
    readonly retryAfterSeconds: number,
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super('RATE_LIMITED', 429, { message: details.RATE_LIMITED, values: { what: { message: what }, minutes } });
  }
}

export type { ValidationIssue };

/** 422 with the list the client turns into "field: message" pairs. */
export class RequestValidationError extends CodedError<'VALIDATION_FAILED'> {
  readonly statusCode = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super('VALIDATION_FAILED', 'Request validation failed');
  }
}
