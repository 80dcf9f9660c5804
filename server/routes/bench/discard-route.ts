// The transport ceiling of `npm run bench:upload` (docs/upload.md, "Transport ceiling"): a route
// that reads a request body as fast as the socket delivers it and throws it away, so the benchmark
// can send the same bytes as the upload by a bare XMLHttpRequest through the same server, proxy and
// connection, and compare. Registered only with BENCH_DISCARD_ROUTE=1 (config.benchDiscardRoute):
// it accepts anonymous bodies, so it is for benchmark and staging servers only.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineHttpError } from '../../errors.ts';
import { defineMessages } from '../../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  PAYLOAD_TOO_LARGE: { id: 'server.discardRoute.payloadTooLarge', defaultMessage: 'The body must declare a Content-Length of at most 256 MiB.' },
});

/** Bodies larger than this are refused: the benchmark sends 16 MiB pieces; no reason to take more. */
export const BENCH_DISCARD_MAX_BYTES = 256 * 1024 * 1024;

export class BenchBodyTooLargeError extends defineHttpError(
  'PAYLOAD_TOO_LARGE',
  413,
  details.PAYLOAD_TOO_LARGE,
) {}

export const benchDiscardResponse = z.object({ bytes: z.number().int().nonnegative() });

export async function benchDiscardRoutes(app: FastifyInstance): Promise<void> {
  // Leave the body unread by Fastify: the handler drains the raw stream itself.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.post(
    '/discard',
    { config: { public: true }, schema: { response: { 200: benchDiscardResponse } } },
    async (request, reply) => {
      const declared = Number(request.headers['content-length'] ?? Number.NaN);
      if (!(declared <= BENCH_DISCARD_MAX_BYTES)) {
        // The body is not drained: the connection closes instead of reading 256 MiB+ to nowhere.
        reply.header('connection', 'close');
        throw new BenchBodyTooLargeError();
      }
      let bytes = 0;
      for await (const piece of request.raw) bytes += (piece as Buffer).length;
      return { bytes };
    },
  );
}
