// The operators' endpoints outside /api (docs/operations.md, "Health, metrics and shutdown"):
// GET /healthz, the process answers (a liveness probe: restart it when this fails); GET /readyz,
// it should get traffic (the database and the blob store answer, and it is neither starting nor
// draining). Both are public and answer no detail beyond which check failed.
import type { FastifyInstance } from 'fastify';
import { healthResponse, readinessResponse, type ReadinessResponse } from '../../../contract/health.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';

/** Each check gets this long; a store that hangs is as unready as one that fails. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;
/** A key no blob has: asking its size costs one stat (disk) or HEAD (S3), and "none" is an answer. */
const BLOB_PROBE_KEY = 'readyz-probe';

type CheckResult = ReadinessResponse['checks']['database'];

async function check(run: () => Promise<unknown>, onFailure: (error: unknown) => void): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return 'ok';
  } catch (error) {
    onFailure(error);
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/healthz', { config: { public: true }, schema: { response: { 200: healthResponse } } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  routes.get('/readyz', { config: { public: true }, schema: { response: { 200: readinessResponse, 503: readinessResponse } } }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const state = app.lifecycle.state;
    if (state !== 'ready') return reply.code(503).send({ status: state, checks: { database: 'skipped', blob_store: 'skipped' } });
    const [database, blobStore] = await Promise.all([
      check(
        () => app.repos.health.ping(),
        (error) => request.log.warn({ err: error }, 'readiness: the database did not answer'),
      ),
      check(
        () => app.blobs.stat(BLOB_PROBE_KEY),
        (error) => request.log.warn({ err: error }, 'readiness: the blob store did not answer'),
      ),
    ]);
    const ready = database === 'ok' && blobStore === 'ok' && app.lifecycle.state === 'ready';
    const status = ready ? 'ready' : app.lifecycle.state === 'ready' ? 'unavailable' : app.lifecycle.state;
    return reply.code(ready ? 200 : 503).send({ status, checks: { database, blob_store: blobStore } });
  });
}
