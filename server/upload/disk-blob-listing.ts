// Walks the disk blob root for the orphan sweep. The BlobStore interface has no listing (an S3
// store would list by prefix); the sweep runs against the disk layout it knows: every regular file
// under the root is a blob whose key is its relative path, except the disk store's own temporary
// files (".<uuid>.partial", left behind only by a crash mid-write).
import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface DiskEntry {
  /** Blob key ("files/<uuid>", "uploads/<id>"), or the relative path of a temporary file. */
  key: string;
  temporary: boolean;
  modifiedAt: number;
}

export async function* walkBlobRoot(root: string, relative = ''): AsyncGenerator<DiskEntry> {
  let directory;
  try {
    directory = await opendir(path.join(root, relative));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for await (const entry of directory) {
    const key = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      yield* walkBlobRoot(root, key);
    } else if (entry.isFile()) {
      const info = await stat(path.join(root, key)).catch(() => undefined);
      if (info) yield { key, temporary: entry.name.startsWith('.'), modifiedAt: info.mtimeMs };
    }
  }
}

export async function removeTemporaryFile(root: string, key: string): Promise<void> {
  await rm(path.join(root, key), { force: true });
}
