// One client's conversation with a Sealdrop server, as a browser tab has it: a cookie jar (the
// csrftoken cookie, a link's grant and recipient cookies) and the CSRF header on every POST, PUT,
// PATCH and DELETE. JSON answers are read through their contract schemas; error answers become
// ApiRequestError with the server's code; no answer at all is a NetworkError. Each call is one
// attempt with a time limit (callers decide about retries).
import type { z } from 'zod';
import { errorResponse } from '../../contract/errors.ts';
import { ApiRequestError, NetworkError } from './errors.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A JSON call that has not answered in this time is given up (the caller may retry). */
export const JSON_CALL_TIMEOUT_MS = 60_000;

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array<ArrayBuffer> | string;
  signal?: AbortSignal;
  timeoutMs?: number | null;
}

export class ApiSession {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  /** The Cookie header this session sends (also to tus-js-client's requests). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get csrfToken(): string | undefined {
    return this.cookies.get('csrftoken');
  }

  /** Headers a request of `method` needs besides its own: cookies and, when mutating, the CSRF token. */
  sessionHeaders(method: string): Record<string, string> {
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const csrf = this.csrfToken;
    if (MUTATING.has(method) && csrf) headers['x-csrftoken'] = csrf;
    return headers;
  }

  /** Keeps the cookies a response sets (a Max-Age of 0 or an empty value removes one). */
  storeCookies(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      if (at <= 0) continue;
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request; any status comes back (the body unread). No answer: NetworkError. */
  async send(request: RawRequest): Promise<Response> {
    const timeoutMs = request.timeoutMs === undefined ? JSON_CALL_TIMEOUT_MS : request.timeoutMs;
    const signals = [request.signal, timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs)].filter((s) => s !== undefined);
    let response: Response;
    try {
      response = await fetch(this.origin + request.path, {
        method: request.method,
        headers: { ...this.sessionHeaders(request.method), ...request.headers },
        body: request.body,
        redirect: 'manual',
        signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
      });
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      throw new NetworkError(`no answer from ${this.origin} (${describeCause(error)})`, { cause: error });
    }
    this.storeCookies(response.headers.getSetCookie());
    return response;
  }

  /** A JSON call: the answer parsed with `schema`, or ApiRequestError. */
  async json<S extends z.ZodType>(schema: S, request: RawRequest & { json?: unknown }): Promise<z.output<S>> {
    const headers = { ...request.headers };
    let body = request.body;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const response = await this.send({ ...request, headers, body });
    if (!response.ok) throw await errorOf(response);
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      throw new NetworkError(`the answer to ${request.method} ${request.path} broke off or is not JSON`, { cause: error });
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) throw new ApiRequestError(response.status, 'UNEXPECTED_ANSWER', `unexpected answer to ${request.method} ${request.path}`);
    return checked.data;
  }
}

/** The error an answer carries: the server's `{detail, code}`, or its status when the body is something else (a proxy's page). */
export async function errorOf(response: Response): Promise<ApiRequestError> {
  const text = await response.text().catch(() => '');
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = errorResponse.safeParse(body);
  if (parsed.success) {
    const detail = typeof parsed.data.detail === 'string' ? parsed.data.detail : parsed.data.detail.map((issue) => issue.msg).join('; ');
    return new ApiRequestError(response.status, parsed.data.code, detail, retryAfterSeconds);
  }
  return new ApiRequestError(response.status, `HTTP_${response.status}`, response.statusText || `HTTP ${response.status}`, retryAfterSeconds);
}

function describeCause(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}
