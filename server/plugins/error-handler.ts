// The one error handler: every error becomes {detail, code} JSON with the right status. Typed API
// errors carry their own status, code and text; validation failures answer 422 VALIDATION_FAILED
// with the field list; other client errors raised by Fastify keep their status and message, with
// the code of their status (PROTOCOL_ERROR_CODES); a write that found the disk (or the database's
// disk) full is logged with its cause and answered 507 DISK_FULL; anything else is logged and
// answered as a bare 500 INTERNAL, never with internals. Requests that fail before routing (a URL the router cannot
// decode, a path parameter over maxParamLength, or what Node's HTTP parser refuses: oversized
// headers, a malformed request line or Content-Length) get the same shape from the two server
// options below.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS, errorBody, HttpError, protocolErrorCode, RateLimitedError, RequestValidationError } from '../errors.ts';
import { SOURCE_LANGUAGE } from '../../locales/languages.ts';
import { english, requestLanguage, textIn } from '../i18n/intl.ts';
import { DiskFullError, isNoSpaceError } from '../storage/storage-errors.ts';
import { globalPlugin } from './global-plugin.ts';

export const errorHandlerPlugin = globalPlugin('error-handler', async (app) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof RateLimitedError) {
      return reply
        .code(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send(errorBody(error.code, detailFor(error, request)));
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(errorBody(error.code, detailFor(error, request)));
    }
    if (isNoSpaceError(error)) {
      const full = new DiskFullError(error);
      request.log.error({ err: error }, 'request refused: no space left on the disk for its writes');
      return reply.code(full.statusCode).send(errorBody(full.code, detailFor(full, request)));
    }
    if (error instanceof RequestValidationError) {
      return reply.code(422).send(errorBody(error.code, error.issues));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(protocolErrorCode(status), error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('INTERNAL', textIn(requestLanguage(request.headers['accept-language']), API_ERRORS.INTERNAL.detail)));
  });
});

/** A typed error's detail in the language the request asks for (English by default, as the contract's). */
function detailFor(error: HttpError, request: FastifyRequest): string {
  const language = requestLanguage(request.headers['accept-language']);
  return language === SOURCE_LANGUAGE ? error.detail : textIn(language, error.detailText);
}

function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Bad Request';
}

/** Fastify's `frameworkErrors` option: the router refused the URL (400) or a parameter's length (414). */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, 'request failed before routing');
  // The detail never echoes the path: it can hold a link token.
  const detail = status === 500 ? english(API_ERRORS.INTERNAL.detail) : statusText(status);
  void reply.code(status).header('cache-control', 'no-store').send(errorBody(protocolErrorCode(status), detail));
}

/**
 * Node answers an `Expect` header other than 100-continue with a bare 417 before Fastify sees the
 * request, unless the server listens for 'checkExpectation': then the answer is ours, in the
 * {detail, code} shape like every other error.
 */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(errorBody(protocolErrorCode(417), statusText(417)));
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(body);
}

/**
 * Fastify's `clientErrorHandler` option: Node's HTTP parser refused the request (header overflow
 * 431, a request that took too long 408, anything malformed 400) before Fastify saw it, so the
 * answer is written to the socket by hand, and the connection closed as Node does.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(protocolErrorCode(status), statusText(status)));
    socket.write(
      `HTTP/1.1 ${status} ${statusText(status)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
