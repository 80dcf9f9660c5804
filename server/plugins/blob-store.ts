// The store for encrypted file contents, as `app.blobs`: a DiskBlobStore under DATA_DIR/blobs or
// an S3BlobStore on S3_BUCKET (BLOB_STORE), opened by storage/open-blob-store.ts, which the admin
// CLI shares. Routes use only the BlobStore interface. A missing or unreachable bucket fails the
// registration, so the server does not start.
import type { BlobStore } from '../storage/blob-store.ts';
import { openBlobStore } from '../storage/open-blob-store.ts';
import { S3BlobStore } from '../storage/s3-blob-store.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobStore;
  }
}

export const blobStorePlugin = globalPlugin('blob-store', async (app) => {
  const blobs = await openBlobStore(app.config);
  app.decorate('blobs', blobs);
  if (blobs instanceof S3BlobStore) app.addHook('onClose', async () => blobs.client.destroy());
});
