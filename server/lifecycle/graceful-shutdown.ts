// What a stop signal (SIGTERM, SIGINT) does, in order (docs/operations.md, "Health, metrics and
// shutdown"):
//   1. /readyz answers 503 at once (draining), every other request is still served, for
//      SHUTDOWN_DRAIN_SECONDS: the time a balancer needs to see it and stop sending traffic;
//   2. the app closes: new requests answer 503, uploads still streaming may finish until the cut
//      time, then their connections are cut at a flushed offset (in-flight-uploads.ts); any other
//      connection left then (a long download) is closed too, so the close is not held open;
//   3. the process exits 0; if anything still holds it at SHUTDOWN_GRACE_SECONDS, it exits 1.
import type { FastifyInstance } from 'fastify';
import type { ShutdownConfig } from '../config.ts';

/** The part of the grace time kept after the cut for flushing, closing the database and the store. */
export function cutMarginMs(graceMs: number): number {
  return Math.min(3_000, Math.floor(graceMs / 4));
}

/** Kept after the cut uploads' writes for closing the database and the store. */
const SETTLE_RESERVE_MS = 250;

export interface ShutdownHooks {
  exit(code: number): void;
  now?(): number;
}

export async function shutDownGracefully(app: FastifyInstance, config: ShutdownConfig, hooks: ShutdownHooks): Promise<void> {
  const now = hooks.now ?? Date.now;
  const signalledAt = now();
  const cutAt = Math.max(signalledAt + config.drainMs, signalledAt + config.graceMs - cutMarginMs(config.graceMs));
  const backstop = setTimeout(() => {
    app.log.error({ graceMs: config.graceMs }, 'shutdown did not finish within its grace time: exiting now');
    hooks.exit(1);
  }, config.graceMs);
  // Cut uploads' writes may take until shortly before the backstop.
  app.lifecycle.beginDraining(cutAt, signalledAt + config.graceMs - SETTLE_RESERVE_MS);
  app.log.info({ drainMs: config.drainMs, cutUploadsInMs: cutAt - signalledAt, inFlightUploads: app.lifecycle.uploads.count }, 'draining');
  if (config.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainMs));
  // Uploads are cut by the upload routes' preClose hook; what else is open at the cut is closed here.
  const closeTheRest = setTimeout(() => app.server.closeAllConnections(), Math.max(0, cutAt - now()) + 100);
  try {
    await app.close();
    app.log.info('stopped');
    hooks.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    hooks.exit(1);
  } finally {
    clearTimeout(closeTheRest);
    clearTimeout(backstop);
  }
}
