// The one mapping from anything that can go wrong in a call (HTTP answer, no answer, thrown error)
// to the message the user reads: the spec's section 8 "HTTP errors" table, row by row. Every screen
// uses describeApiError; nobody else inspects error bodies.
//
// The server's error answers are {detail, code} (docs/api.md, "Error codes") and the mapping
// branches on the code, never on the detail's wording. An answer without a code (a proxy, a
// gateway) is mapped by its status alone. The server's detail is shown where the spec says so.

import { OTP_REQUIRED_MESSAGE } from '../../contract/auth.ts';
import type { ServerErrorCode } from '../../contract/errors.ts';
import { isDownloadFailure } from '../../contract/download-failure.ts';
import { defineMessages } from '../i18n/defineMessages.ts';
import { t } from '../i18n/language.ts';
import { isUserFacingError } from '../lib/userFacingError.ts';
import { downloadErrorText, SIGN_IN_TEXTS, STORAGE_REFUSAL_MESSAGES } from '../lib/userTexts.ts';

// The spec's section 8 texts: English exactly as the spec quotes them.
const messages = defineMessages({
  sessionExpired: { id: 'errors.http.sessionExpired', defaultMessage: 'Session expired. Please login again.' },
  badCredentials: { id: 'errors.http.badCredentials', defaultMessage: 'Incorrect username or password.' },
  wrongPassword: { id: 'errors.http.wrongPassword', defaultMessage: 'Incorrect password provided.' },
  unauthorized: { id: 'errors.http.unauthorized', defaultMessage: 'Unauthorized or session possibly expired.' },
  forbidden: { id: 'errors.http.forbidden', defaultMessage: 'Forbidden' },
  rateLimited: { id: 'errors.http.rateLimited', defaultMessage: 'Too many requests. Please try again later.' },
  validation: { id: 'errors.http.validation', defaultMessage: 'Request validation failed. Check inputs.' },
  validationItem: {
    id: 'errors.http.validationItem',
    defaultMessage: '{field}: {problem}',
    description: "One refused input of a request: the field's name and the server's words for what is wrong (both as the server sent them)",
  },
  validationField: { id: 'errors.http.validationField', defaultMessage: 'input', description: 'Stands for the field when the server did not name it' },
  validationProblem: { id: 'errors.http.validationProblem', defaultMessage: 'invalid value', description: 'Stands for the problem when the server did not say it' },
  serverDetail: { id: 'errors.http.serverDetail', defaultMessage: 'Server Error: {detail}', description: "detail: the server's own words" },
  status: { id: 'errors.http.status', defaultMessage: 'Error: {status} - {reason}', description: 'status: the HTTP status number; reason: its reason phrase' },
  requestFailed: { id: 'errors.http.requestFailed', defaultMessage: 'Request failed', description: 'Stands for the HTTP reason phrase when there is none' },
  network: { id: 'errors.network.unreachable', defaultMessage: 'Network Error: Could not connect to the server.' },
  unexpected: { id: 'errors.unexpected.withMessage', defaultMessage: 'Unexpected Error: {message}' },
  unknown: { id: 'errors.unexpected.unknown', defaultMessage: 'An unknown error occurred.' },
  unexpectedOther: { id: 'errors.unexpected.other', defaultMessage: 'An unexpected error occurred.' },
});

export type ApiErrorCode =
  | 'session-expired'
  | 'bad-credentials'
  | 'wrong-password'
  | 'unauthorized'
  | 'forbidden'
  | 'rate-limited'
  | 'sign-in-upgrade'
  | 'validation'
  | 'server'
  | 'http'
  | 'network'
  | 'unexpected'
  // One of the app's own errors (UserFacingError): its own code is in `appCode`. A closed union,
  // so comparing `code` with anything that is no code here fails to compile.
  | 'app';

export interface ApiErrorInfo {
  code: ApiErrorCode;
  /** Exact user-facing text. */
  message: string;
  /** False where the spec says the message is not shown as a notification. */
  toast: boolean;
  /** HTTP status when the server answered, else null. */
  status: number | null;
  /** The server's code (docs/api.md, "Error codes") when its answer carried one, else null. */
  serverCode: string | null;
  /** The code of the app's own error (code 'app'), else null. */
  appCode: string | null;
}

interface ValidationItem {
  loc?: unknown;
  msg?: unknown;
}

function info(code: ApiErrorCode, message: string, status: number | null, toast = true, serverCode: string | null = null): ApiErrorInfo {
  return { code, message, toast, status, serverCode, appCode: null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function stringDetail(data: unknown): string | null {
  if (!isRecord(data)) return null;
  const { detail } = data;
  return typeof detail === 'string' && detail.trim() !== '' ? detail : null;
}

function validationPairs(data: unknown): string | null {
  if (!isRecord(data) || !Array.isArray(data.detail) || data.detail.length === 0) return null;
  return (data.detail as ValidationItem[])
    .map((item) => {
      const loc = Array.isArray(item.loc) ? item.loc : [];
      const field = loc.length > 0 ? String(loc[loc.length - 1]) : t(messages.validationField);
      return t(messages.validationItem, { field, problem: typeof item.msg === 'string' ? item.msg : t(messages.validationProblem) });
    })
    .join('; ');
}

/** How the spec's table treats an HTTP answer: the row it falls in. */
type HttpRow = 'session-expired' | 'bad-credentials' | 'wrong-password' | 'sign-in-upgrade' | 'unauthorized' | 'forbidden' | 'rate-limited' | 'validation' | 'other';

/**
 * Server codes with a row of their own; every other code takes the row of its status. The 401
 * rows the spec words by detail text ('Session expired', 'Incorrect username or password',
 * 'Incorrect password') are these codes; a link's wrong password says 'Incorrect password' too.
 */
const ROW_OF_SERVER_CODE: Readonly<Record<string, HttpRow>> = {
  SESSION_EXPIRED: 'session-expired',
  INCORRECT_CREDENTIALS: 'bad-credentials',
  INCORRECT_PASSWORD: 'wrong-password',
  INCORRECT_LINK_PASSWORD: 'wrong-password',
  SIGN_IN_UPGRADE_REQUIRED: 'sign-in-upgrade',
} satisfies { [Code in ServerErrorCode]?: HttpRow };

function rowOfStatus(status: number): HttpRow {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 429:
      return 'rate-limited';
    case 422:
      return 'validation';
    default:
      return 'other';
  }
}

function serverCodeOf(data: unknown): string | null {
  if (!isRecord(data)) return null;
  const { code } = data;
  return typeof code === 'string' && code !== '' ? code : null;
}

/** Server codes worded by the app itself rather than by the server's detail (the uploader's refusals for want of room). */
const TEXT_OF_SERVER_CODE: Readonly<Record<string, string>> = STORAGE_REFUSAL_MESSAGES satisfies { [Code in ServerErrorCode]?: string };

function describeHttp(status: number, data: unknown, statusText: string): ApiErrorInfo {
  const detail = stringDetail(data);
  const serverCode = serverCodeOf(data);
  const own = serverCode === null ? undefined : TEXT_OF_SERVER_CODE[serverCode];
  if (own !== undefined) return info(status >= 500 ? 'server' : 'http', own, status, true, serverCode);
  const row = (serverCode !== null ? ROW_OF_SERVER_CODE[serverCode] : undefined) ?? rowOfStatus(status);
  const answer = (code: ApiErrorCode, message: string, toast = true) => info(code, message, status, toast, serverCode);
  switch (row) {
    case 'session-expired':
      return answer('session-expired', t(messages.sessionExpired), false);
    case 'bad-credentials':
      return answer('bad-credentials', t(messages.badCredentials));
    case 'wrong-password':
      return answer('wrong-password', t(messages.wrongPassword));
    case 'sign-in-upgrade':
      return answer('sign-in-upgrade', SIGN_IN_TEXTS.upgradeRequired);
    case 'unauthorized':
      return answer('unauthorized', detail ?? t(messages.unauthorized));
    case 'forbidden':
      return answer('forbidden', detail ?? t(messages.forbidden));
    case 'rate-limited':
      return answer('rate-limited', detail ?? t(messages.rateLimited));
    case 'validation':
      return answer('validation', validationPairs(data) ?? detail ?? t(messages.validation));
    case 'other': {
      const kind = status >= 500 ? 'server' : 'http';
      if (detail !== null) return answer(kind, status >= 500 ? t(messages.serverDetail, { detail }) : detail);
      return answer(kind, t(messages.status, { status: String(status), reason: statusText || t(messages.requestFailed) }));
    }
  }
}

/** Maps any error value (RTK Query error, thrown Error, UserFacingError, anything) to its message. */
export function describeApiError(error: unknown): ApiErrorInfo {
  if (isUserFacingError(error)) return { ...info('app', error.message, null), appCode: error.code };
  // Workers send a download failure's code and facts; its text comes from the catalogue.
  if (isDownloadFailure(error)) return { ...info('app', downloadErrorText(error), null), appCode: error.code };
  if (isRecord(error) && 'status' in error) {
    const { status } = error;
    const statusText = typeof error.statusText === 'string' ? error.statusText : '';
    if (typeof status === 'number') return describeHttp(status, error.data, statusText);
    if (status === 'PARSING_ERROR' && typeof error.originalStatus === 'number') {
      // A body that is not JSON (a proxy's HTML page, say) carries no detail.
      return describeHttp(error.originalStatus, undefined, statusText);
    }
    if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') {
      return info('network', t(messages.network), null);
    }
    if (status === 'CUSTOM_ERROR') {
      const message = typeof error.error === 'string' ? error.error : '';
      return info('unexpected', message ? t(messages.unexpected, { message }) : t(messages.unknown), null);
    }
  }
  if (error instanceof Error || (isRecord(error) && 'message' in error)) {
    const message = isRecord(error) && typeof error.message === 'string' ? error.message : '';
    return info('unexpected', message ? t(messages.unexpected, { message }) : t(messages.unknown), null);
  }
  if (typeof error === 'string' && error !== '') return info('unexpected', t(messages.unexpected, { message: error }), null);
  return info('unexpected', t(messages.unexpectedOther), null);
}

/**
 * Whether the server answered with `code` (one of contract/errors.ts's list). An answer without a
 * code (an older server, a proxy) counts when its status is `statusWithoutCode` (the status the
 * server gives that code).
 */
export function answeredWith(described: ApiErrorInfo, code: ServerErrorCode, statusWithoutCode?: number): boolean {
  if (described.serverCode !== null) return described.serverCode === code;
  return statusWithoutCode !== undefined && described.status === statusWithoutCode;
}

/** Server codes whose message says the verification code (or the link) is invalid or expired. */
const INVALID_OR_EXPIRED_CODES: ReadonlySet<string> = new Set<ServerErrorCode>(['INVALID_CODE', 'LINK_INVALID']);

/**
 * Spec section 5, upload page: a failed code verification whose server message says 'invalid' or
 * 'expired' is shown as the fixed text. Decided by the answer's code only (the server's messages
 * for exactly these codes are the ones that say so); an answer without a code (a proxy's page) is
 * shown as it is. A rate limit never counts: its text tells the uploader to wait.
 */
export function saysCodeInvalidOrExpired(described: ApiErrorInfo): boolean {
  if (described.status === 429 || described.serverCode === null) return false;
  return INVALID_OR_EXPIRED_CODES.has(described.serverCode);
}

/** Whether this is the 200 answer of the login's password step that asks for the second factor (spec section 4). */
export function asksForOtpCode(response: unknown): boolean {
  return isRecord(response) && response.message === OTP_REQUIRED_MESSAGE;
}

/**
 * Texts of the spec's catalogue that this design cannot reach, each with the reason in one line
 * (checked string by string against the spec by errorCatalogue.test.ts). Every other catalogue text
 * stands where its condition occurs.
 */
export const UNPLACED_CATALOGUE_TEXTS: Readonly<Record<string, string>> = {
  'Invalid encrypted data: too short to contain IV.':
    'the IV is not in the encrypted data (it comes with the file record and x-encryption-iv), and data shorter than the file record says fails as incomplete',
  'File type must be ':
    'the upload page accepts files of every type: there is no accept list a dropped file could miss',
  'File is larger than ':
    "the only size limit is the spec's 5120 MB, and a larger file gets its specific text, 'Files too large (max 5120 MB): ...'",
  'File is smaller than ':
    'there is no minimum size: an empty file is uploaded like any other',
};
