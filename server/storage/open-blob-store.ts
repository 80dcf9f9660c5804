// The blob store a process works with: a DiskBlobStore under DATA_DIR/blobs. The server (plugin
// blob-store.ts) and the admin CLI open it the same way, so both see the same blobs.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from './blob-store.ts';
import { DiskBlobStore } from './disk-blob-store.ts';

export async function openBlobStore(dataDir: string): Promise<BlobStore> {
  const root = path.join(dataDir, 'blobs');
  await mkdir(root, { recursive: true });
  return new DiskBlobStore(root);
}
