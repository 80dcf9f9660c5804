// Anonymous uploads as `app.uploads`: the gate checks (link password, e-mail codes, grants), the
// tus server for resumable uploads (its bytes in the configured blob store, see
// upload/tus-storage.ts), and the size relation of the encrypted format. Routes under /api/upload
// use these; the sweep plugin cleans up after them.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Server as TusServer } from '@tus/server';
import { recordFormatSize, type CiphertextSize } from '../upload/format-size.ts';
import { createTusServer } from '../upload/tus-server.ts';
import { diskTusStorage, s3TusStorage, TUS_BLOB_PREFIX, type TusStorage } from '../upload/tus-storage.ts';
import { createUploadAccess, type UploadAccess } from '../upload/upload-access.ts';
import { globalPlugin } from './global-plugin.ts';

export interface UploadServices {
  access: UploadAccess;
  sizes: CiphertextSize;
  tus: TusServer;
  /** Where the tus server keeps upload bytes and state, in the configured blob store. */
  tusStorage: TusStorage;
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
  if (config.blobStore.kind === 's3') {
    tusStorage = s3TusStorage(config.blobStore, blobs);
  } else {
    const blobRoot = path.join(config.dataDir, 'blobs');
    // The file store creates its directory in the background and throws from a callback when that
    // fails; creating it first makes that a no-op and a failure an ordinary start-up error.
    await mkdir(path.join(blobRoot, TUS_BLOB_PREFIX), { recursive: true });
    tusStorage = diskTusStorage(blobRoot, blobs, repos);
  }
  const tus = createTusServer({
    storage: tusStorage,
    repos,
    sizes,
    maxFileBytes: config.upload.maxFileBytes,
    now,
    log: app.log,
  });
  app.decorate('uploads', { access, sizes, tus, tusStorage });
  app.addHook('onClose', () => tusStorage.close());
});
