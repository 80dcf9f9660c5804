// The store for encrypted file contents, as `app.blobs`: a DiskBlobStore under DATA_DIR/blobs.
// Routes use only the BlobStore interface, so an S3-compatible store can replace it here.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../storage/blob-store.ts';
import { DiskBlobStore } from '../storage/disk-blob-store.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobStore;
  }
}

export const blobStorePlugin = globalPlugin('blob-store', async (app) => {
  const root = path.join(app.config.dataDir, 'blobs');
  await mkdir(root, { recursive: true });
  app.decorate('blobs', new DiskBlobStore(root));
});
