// The store for encrypted file contents, as `app.blobs`: a DiskBlobStore under DATA_DIR/blobs,
// opened by storage/open-blob-store.ts, which the admin CLI shares. Routes use only the BlobStore
// interface, so an S3-compatible store can replace the disk store there.
import type { BlobStore } from '../storage/blob-store.ts';
import { openBlobStore } from '../storage/open-blob-store.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobStore;
  }
}

export const blobStorePlugin = globalPlugin('blob-store', async (app) => {
  app.decorate('blobs', await openBlobStore(app.config.dataDir));
});
