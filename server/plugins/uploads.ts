// Anonymous uploads as `app.uploads`: the gate checks (link password, e-mail codes, grants), the
// tus server for resumable uploads (its bytes in the configured blob store, see
// upload/tus-storage.ts), and the size relation of the encrypted format. Routes under /api/upload
// use these; the sweep plugin cleans up after them.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Server as TusServer } from '@tus/server';
import { recordFormatSize, type CiphertextSize } from '../upload/format-size.ts';
import { sweepHolderName } from '../upload/sweep.ts';
import { SharedUploadLocker } from '../upload/tus-locker.ts';
import { createTusServer } from '../upload/tus-server.ts';
import { diskTusStorage, s3TusStorage, TUS_BLOB_PREFIX, type TusStorage } from '../upload/tus-storage.ts';
import { diskSpaceGuard, unguardedSpace, type SpaceGuard } from '../storage/free-space.ts';
import { createUploadAccess, type UploadAccess } from '../upload/upload-access.ts';
import { globalPlugin } from './global-plugin.ts';

export interface UploadServices {
  access: UploadAccess;
  sizes: CiphertextSize;
  tus: TusServer;
  /** Where the tus server keeps upload bytes and state, in the configured blob store. */
  tusStorage: TusStorage;
  /** The free-space reserve of the disk store (none with S3). */
  space: SpaceGuard;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploads: UploadServices;
  }
}

export const uploadsPlugin = globalPlugin('uploads', async (app) => {
  const { config, repos, mailer, blobs } = app;
  const now = () => app.now();
  const sizes = recordFormatSize;
  const access = createUploadAccess({ repos, config, now, mailer, attempts: app.attempts, log: app.log });
  let tusStorage: TusStorage;
  let space: SpaceGuard = unguardedSpace;
  if (config.blobStore.kind === 's3') {
    tusStorage = s3TusStorage(config.blobStore, blobs);
  } else {
    const blobRoot = path.join(config.dataDir, 'blobs');
    // The file store creates its directory in the background and throws from a callback when that
    // fails; creating it first makes that a no-op and a failure an ordinary start-up error.
    await mkdir(path.join(blobRoot, TUS_BLOB_PREFIX), { recursive: true });
    space = diskSpaceGuard(blobRoot, config.upload.reserveBytes, { claims: repos.diskSpaceClaims, onNoSpace: () => app.ballast.check() });
    tusStorage = diskTusStorage(blobRoot, blobs, repos, space);
  }
  // Every write of a PATCH's bytes: a shutdown waits for the ones of the uploads it cut
  // (server/lifecycle/in-flight-uploads.ts), and the metrics count what each brought.
  const write = tusStorage.datastore.write.bind(tusStorage.datastore);
  tusStorage.datastore.write = (stream, id, offset) =>
    app.lifecycle.uploads.storeWrite(
      write(stream, id, offset).then((end) => {
        app.metrics.uploadBytesReceived('tus', end - offset);
        return end;
      }),
    );
  const locker = new SharedUploadLocker(repos.taskLeases, sweepHolderName(), app.log);
  const tus = createTusServer({
    storage: tusStorage,
    repos,
    sizes,
    maxFileBytes: config.upload.maxFileBytes,
    now,
    log: app.log,
    space,
    locker,
  });
  app.decorate('uploads', { access, sizes, tus, tusStorage, space });
  app.addHook('onClose', () => tusStorage.close());
  app.addHook('onClose', () => locker.releaseAll());
});
