// Logger options. Request bodies are never logged (Fastify does not), and no log line carries a
// credential or a bearer capability, at any level, whoever logs it.
//
// Why a hook on the written line rather than pino's `redact` paths: redact needs every path known
// in advance, and the paths are not ours to know. @fastify/multipart logs all request headers at
// trace under `busboyOptions.headers`; Fastify logs the request URL (link tokens are path
// segments) and puts URLs into messages; errors from libraries carry their own messages. So every
// line goes through scrubLogLine (log-scrub.ts) in `hooks.streamWrite`, the last step before pino
// writes to its destination, for every logger, child logger and level: secret-named values are
// redacted wherever they sit, and link tokens and other token-shaped strings are replaced by a
// short hash ("tok:1a2b3c4d"). It costs one JSON parse per line, small next to a request.
//
// Not covered: output of the `debug` package (DEBUG=tus-node-server... goes to stderr, not
// through pino) and the start-up lines main.ts prints with console.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config.ts';
import { scrubLogLine } from './log-scrub.ts';

/** Anything pino can write lines to. */
export interface LogDestination {
  write(line: string): unknown;
}

export function loggerOptions(level: LogLevel, stream?: LogDestination): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    hooks: { streamWrite: scrubLogLine },
  };
}
