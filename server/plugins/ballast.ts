// The ballast file of the disk store (storage/ballast.ts): written at start-up (or, when an earlier
// run left one, taken as it is), checked before every request so that a disk filled by something
// else never locks the admin out, and as `app.ballast` for the sweep, which checks it before it runs,
// and the upload write path, which checks it the moment it meets ENOSPC (free-space.ts noSpaceMet).
import { diskBallast, type Ballast } from '../storage/ballast.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ballast: Ballast;
  }
}

const NO_BALLAST: Ballast = { async check() {} };

/** At most this much ballast; less when the reserve is smaller (docs/operations.md, 'Disk space'). */
const BALLAST_MAX_BYTES = 16 * 1024 * 1024;

export const ballastPlugin = globalPlugin('ballast', async (app) => {
  const { config } = app;
  // Nothing of ours on the local disk to keep writable: the database and the blobs are elsewhere.
  if (config.blobStore.kind === 's3' && config.database.kind === 'postgres') {
    app.decorate('ballast', NO_BALLAST);
    return;
  }
  const reserve = config.upload.reserveBytes;
  const ballast = diskBallast(config.dataDir, Math.min(BALLAST_MAX_BYTES, Math.floor(reserve / 2)), reserve, app.log);
  await ballast.check().catch((error: unknown) => app.log.warn({ err: error }, 'could not write the ballast file'));
  app.decorate('ballast', ballast);
  app.addHook('onRequest', async () => {
    await ballast.check().catch((error: unknown) => app.log.warn({ err: error }, 'could not check the ballast file'));
  });
});
