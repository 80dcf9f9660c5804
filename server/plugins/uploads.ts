// Anonymous uploads as `app.uploads`: the gate checks (link password, e-mail codes, grants), the
// tus server for resumable uploads, and the size relation of the encrypted format. Routes under
// /api/upload use these; the sweep plugin cleans up after them.
import path from 'node:path';
import type { Server as TusServer } from '@tus/server';
import type { CiphertextSize } from '../upload/ciphertext-size.ts';
import { recordFormatSize } from '../upload/format-size.ts';
import { createTusServer, TUS_BLOB_PREFIX } from '../upload/tus-server.ts';
import { createUploadAccess, type UploadAccess } from '../upload/upload-access.ts';
import { globalPlugin } from './global-plugin.ts';

export interface UploadServices {
  access: UploadAccess;
  sizes: CiphertextSize;
  tus: TusServer;
  /** The disk blob store's root (the blob-store plugin's DATA_DIR/blobs); tus uploads live inside it. */
  blobRoot: string;
  /** Where the tus file store keeps upload bytes: `<blobRoot>/uploads`. */
  tusDirectory: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploads: UploadServices;
  }
}

export const uploadsPlugin = globalPlugin('uploads', async (app) => {
  const { config, repos, mailer } = app;
  const now = () => app.now();
  const blobRoot = path.join(config.dataDir, 'blobs');
  const sizes = recordFormatSize;
  const access = createUploadAccess({ repos, config, now, mailer, attempts: app.attempts, log: app.log });
  const tus = await createTusServer({
    blobRoot,
    repos,
    sizes,
    maxFileBytes: config.upload.maxFileBytes,
    now,
    log: app.log,
  });
  app.decorate('uploads', { access, sizes, tus, blobRoot, tusDirectory: path.join(blobRoot, TUS_BLOB_PREFIX) });
});
