// The operators' endpoints outside /api (docs/operations.md, "Health, metrics and shutdown"):
// /healthz says the process answers; /readyz says whether it should get traffic now.
import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponse>;

/** What a readiness check found: `skipped` when the process is not ready anyway (starting, draining). */
export const readinessCheck = z.enum(['ok', 'failed', 'skipped']);

/**
 * 200 with `ready`; 503 with `starting` (not listening yet), `draining` (shutting down: take it out
 * of rotation) or `unavailable` (the database or the blob store did not answer in time).
 */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'starting', 'draining', 'unavailable']),
  checks: z.object({ database: readinessCheck, blob_store: readinessCheck }),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;
