// Logger options. Request bodies are never logged (Fastify does not), and the headers that carry
// secrets are redacted in case a serializer or a debug statement ever includes them.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.ts';

export function loggerOptions(level: LogLevel): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers["x-csrftoken"]',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers["set-cookie"]',
        'headers["x-csrftoken"]',
      ],
      censor: '[redacted]',
    },
  };
}
