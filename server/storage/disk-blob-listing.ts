// Walks the disk blob root for the orphan sweep: every regular file under the root is a blob whose
// key is its relative path, except the disk store's own temporary files (".<uuid>.partial", left
// behind only by a crash mid-write), which are listed as unfinished writes.
import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StoredEntry } from './blob-store.ts';

export async function* listDiskBlobs(root: string, relative = ''): AsyncGenerator<StoredEntry> {
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
      yield* listDiskBlobs(root, key);
    } else if (entry.isFile()) {
      const file = path.join(root, key);
      const info = await stat(file).catch(() => undefined);
      if (!info) continue;
      yield {
        key,
        modifiedAt: info.mtimeMs,
        unfinished: entry.name.startsWith('.'),
        remove: () => rm(file, { force: true }),
      };
    }
  }
}
