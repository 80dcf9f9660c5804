// The one error handler: every error becomes {detail} JSON with the right status. Typed API
// errors carry their own status and text; validation failures answer 422 with the field list;
// other client errors raised by Fastify keep their status and message; anything else is logged
// and answered as a bare 500, never with internals.
import type { FastifyError } from 'fastify';
import { API_ERRORS, HttpError, RateLimitedError, RequestValidationError } from '../errors.ts';
import { globalPlugin } from './global-plugin.ts';

export const errorHandlerPlugin = globalPlugin('error-handler', async (app) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof RateLimitedError) {
      return reply.code(429).header('retry-after', String(error.retryAfterSeconds)).send({ detail: error.detail });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ detail: error.detail });
    }
    if (error instanceof RequestValidationError) {
      return reply.code(422).send({ detail: error.issues });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: API_ERRORS.INTERNAL.detail });
  });
});
