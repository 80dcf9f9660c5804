// Runs the upload sweep (server/upload/sweep.ts) every UPLOAD_SWEEP_INTERVAL_MINUTES, on a timer
// that never keeps the process alive, and exposes it as `app.sweepUploads(now?)` for tests and
// operators. Runs do not overlap in a process, nor across processes (the sweep takes a database
// lease); a failed run is logged and the next one tries again.
import { sweepHolderName, sweepUploads, type SweepReport } from '../upload/sweep.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** One sweep pass as of `now` (default: the app clock). */
    sweepUploads(now?: number): Promise<SweepReport>;
  }
}

export const uploadSweepPlugin = globalPlugin('upload-sweep', async (app) => {
  const deps = {
    repos: app.repos,
    blobs: app.blobs,
    tusStorage: app.uploads.tusStorage,
    abandonAfterMs: app.config.upload.abandonAfterMs,
    grantTtlMs: app.config.upload.grantTtlMs,
    log: app.log,
    holder: sweepHolderName(),
  };
  app.decorate('sweepUploads', (now?: number) => sweepUploads(deps, now ?? app.now()));

  const interval = app.config.upload.sweepIntervalMs;
  if (interval === 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    app
      .sweepUploads()
      .catch((error: unknown) => app.log.error({ err: error }, 'upload sweep failed'))
      .finally(() => {
        running = false;
      });
  }, interval);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
