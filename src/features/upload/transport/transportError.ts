// What went wrong in sending: no answer (network), an HTTP answer that is an error, or an answer
// that is not what the API promises. Shaped like an RTK Query error (`status`, `data`,
// `statusText`), so the app's one error mapping (api/errors.ts describeApiError) turns it into the
// spec's text, exactly as for every other call.

export type TransportErrorCode = 'network' | 'http' | 'bad-response' | 'aborted';

export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: TransportErrorCode;
  /** The HTTP status, or RTK Query's marker for "no response". */
  readonly status: number | 'FETCH_ERROR';
  readonly data: unknown;
  readonly statusText: string;

  private constructor(code: TransportErrorCode, message: string, status: number | 'FETCH_ERROR', data: unknown, statusText: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
    this.statusText = statusText;
  }

  static network(): TransportError {
    return new TransportError('network', 'no response from the server', 'FETCH_ERROR', undefined, '');
  }

  static aborted(): TransportError {
    return new TransportError('aborted', 'the upload was stopped', 'FETCH_ERROR', undefined, '');
  }

  /** An error answer; a body that is not JSON becomes `{detail: text}` (tus answers in plain text). */
  static http(status: number, statusText: string, body: string): TransportError {
    return new TransportError('http', `HTTP ${status}`, status, parseErrorBody(body), statusText);
  }

  static badResponse(status: number): TransportError {
    return new TransportError('bad-response', 'the server answered with something other than an upload result', status, undefined, '');
  }
}

function parseErrorBody(body: string): unknown {
  const text = body.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { detail: text };
  }
}

export function isTransportError(value: unknown, code?: TransportErrorCode): value is TransportError {
  return value instanceof TransportError && (code === undefined || value.code === code);
}

/**
 * 409 answers that no wait changes: a team folder's key changed (FOLDER_KEY_CHANGED), so what was
 * sealed to the old key is refused for good; the run fetches the new key and seals the files again
 * (uploadController.ts), which it can only do once the request has failed.
 */
const FINAL_CONFLICT_CODES: ReadonlySet<unknown> = new Set(['FOLDER_KEY_CHANGED']);

function answerCode(error: TransportError): unknown {
  return typeof error.data === 'object' && error.data !== null && 'code' in error.data ? error.data.code : undefined;
}

/**
 * Worth trying again later: no answer, or an answer that says "not now" rather than "never". Not
 * 507 (the server's disk is full) nor 413 (the folder's limit, or a file too large): waiting does
 * not make room, only the admin can, so the file fails at once with the message that says so and
 * keeps what the server holds of it; the uploader's Retry continues from there. Not a 409 that
 * names a changed folder key either (FINAL_CONFLICT_CODES).
 */
export function isRetryable(error: TransportError): boolean {
  if (error.code === 'network') return true;
  if (error.code !== 'http' || typeof error.status !== 'number') return false;
  if (error.status === 507) return false;
  if (error.status === 409 && FINAL_CONFLICT_CODES.has(answerCode(error))) return false;
  return error.status >= 500 || error.status === 408 || error.status === 409 || error.status === 423;
}
