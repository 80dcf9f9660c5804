// The blob store a process works with, as configured (BLOB_STORE): a DiskBlobStore under
// DATA_DIR/blobs, or an S3BlobStore on S3_BUCKET, whose bucket is checked first so that a missing
// or unreachable bucket stops the start with one line saying which. The server (plugin
// blob-store.ts) and the admin CLI open it the same way, so both see the same blobs.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { DiskBlobStore } from './disk-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { createS3Client, type S3StoreConfig } from './s3-client.ts';

export async function openDiskBlobStore(dataDir: string): Promise<DiskBlobStore> {
  const root = path.join(dataDir, 'blobs');
  await mkdir(root, { recursive: true });
  return new DiskBlobStore(root);
}

export async function openS3BlobStore(config: S3StoreConfig): Promise<S3BlobStore> {
  const store = new S3BlobStore(createS3Client(config), config.bucket);
  await store.checkBucket(config.endpoint ?? `AWS region ${config.region}`);
  return store;
}

export async function openBlobStore(config: Pick<Config, 'dataDir' | 'blobStore'>): Promise<BlobStore> {
  return config.blobStore.kind === 's3' ? openS3BlobStore(config.blobStore) : openDiskBlobStore(config.dataDir);
}
