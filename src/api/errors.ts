// The one mapping from anything that can go wrong in a call (HTTP answer, no answer, thrown error)
// to the message the user reads: the spec's section 8 "HTTP errors" table, row by row. Every screen
// uses describeApiError; nobody else inspects error bodies.

import { isUserFacingError } from '../lib/userFacingError.ts';

export type ApiErrorCode =
  | 'session-expired'
  | 'bad-credentials'
  | 'wrong-password'
  | 'unauthorized'
  | 'forbidden'
  | 'rate-limited'
  | 'validation'
  | 'server'
  | 'http'
  | 'network'
  | 'unexpected'
  | (string & {}); // codes of UserFacingError subclasses pass through unchanged

export interface ApiErrorInfo {
  code: ApiErrorCode;
  /** Exact user-facing text. */
  message: string;
  /** False where the spec says the message is not shown as a notification. */
  toast: boolean;
  /** HTTP status when the server answered, else null. */
  status: number | null;
}

interface ValidationItem {
  loc?: unknown;
  msg?: unknown;
}

function info(code: ApiErrorCode, message: string, status: number | null, toast = true): ApiErrorInfo {
  return { code, message, toast, status };
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
      const field = loc.length > 0 ? String(loc[loc.length - 1]) : 'input';
      return `${field}: ${typeof item.msg === 'string' ? item.msg : 'invalid value'}`;
    })
    .join('; ');
}

function describeHttp(status: number, data: unknown, statusText: string): ApiErrorInfo {
  const detail = stringDetail(data);
  switch (status) {
    case 401:
      if (detail?.includes('Session expired')) return info('session-expired', 'Session expired. Please login again.', status, false);
      if (detail === 'Incorrect username or password') return info('bad-credentials', 'Incorrect username or password.', status);
      if (detail === 'Incorrect password') return info('wrong-password', 'Incorrect password provided.', status);
      return info('unauthorized', detail ?? 'Unauthorized or session possibly expired.', status);
    case 403:
      return info('forbidden', detail ?? 'Forbidden', status);
    case 429:
      return info('rate-limited', detail ?? 'Too many requests. Please try again later.', status);
    case 422:
      return info('validation', validationPairs(data) ?? detail ?? 'Request validation failed. Check inputs.', status);
    default:
      if (detail !== null) return info(status >= 500 ? 'server' : 'http', status >= 500 ? `Server Error: ${detail}` : detail, status);
      return info(status >= 500 ? 'server' : 'http', `Error: ${status} - ${statusText || 'Request failed'}`, status);
  }
}

/** Maps any error value (RTK Query error, thrown Error, UserFacingError, anything) to its message. */
export function describeApiError(error: unknown): ApiErrorInfo {
  if (isUserFacingError(error)) return info(error.code, error.message, null);
  if (isRecord(error) && 'status' in error) {
    const { status } = error;
    const statusText = typeof error.statusText === 'string' ? error.statusText : '';
    if (typeof status === 'number') return describeHttp(status, error.data, statusText);
    if (status === 'PARSING_ERROR' && typeof error.originalStatus === 'number') {
      // A body that is not JSON (a proxy's HTML page, say) carries no detail.
      return describeHttp(error.originalStatus, undefined, statusText);
    }
    if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') {
      return info('network', 'Network Error: Could not connect to the server.', null);
    }
    if (status === 'CUSTOM_ERROR') {
      const message = typeof error.error === 'string' ? error.error : '';
      return info('unexpected', message ? `Unexpected Error: ${message}` : 'An unknown error occurred.', null);
    }
  }
  if (error instanceof Error || (isRecord(error) && 'message' in error)) {
    const message = isRecord(error) && typeof error.message === 'string' ? error.message : '';
    return info('unexpected', message ? `Unexpected Error: ${message}` : 'An unknown error occurred.', null);
  }
  if (typeof error === 'string' && error !== '') return info('unexpected', `Unexpected Error: ${error}`, null);
  return info('unexpected', 'An unexpected error occurred.', null);
}
