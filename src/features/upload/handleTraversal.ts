// Files from File System Access handles (Chromium): a picked or dropped file, or every file under a
// picked or dropped folder, each with the directory it was found in (starting with the folder's own
// name, as `<input webkitdirectory>` and a dropped folder give it: the same paths, so the same
// files match whichever way they were chosen) and the handle to open it again after a reload.
import { isIgnoredFile, type CandidateFile } from './fileSelection.ts';
import type { FileSource } from './resume/fileSource.ts';

/** A candidate file and where it can be opened again. */
export interface SourcedFile extends CandidateFile {
  source: FileSource;
}

/** Async iteration of a directory's children: in Chromium, not in TypeScript's DOM library yet. */
interface IterableDirectory {
  values(): AsyncIterable<FileSystemHandle>;
}

function childrenOf(directory: FileSystemDirectoryHandle): AsyncIterable<FileSystemHandle> {
  return (directory as unknown as IterableDirectory).values();
}

function isFileHandle(handle: FileSystemHandle): handle is FileSystemFileHandle {
  return handle.kind === 'file';
}

export async function fileFromHandle(handle: FileSystemFileHandle): Promise<SourcedFile | null> {
  if (isIgnoredFile(handle.name)) return null;
  return { file: await handle.getFile(), relativePath: '.', source: { kind: 'file', handle } };
}

/** Every file under `root`, depth first, system clutter skipped. */
export async function filesUnderFolder(root: FileSystemDirectoryHandle): Promise<SourcedFile[]> {
  const out: SourcedFile[] = [];
  const walk = async (directory: FileSystemDirectoryHandle, below: string[]): Promise<void> => {
    for await (const child of childrenOf(directory)) {
      if (isFileHandle(child)) {
        if (isIgnoredFile(child.name)) continue;
        out.push({
          file: await child.getFile(),
          relativePath: [root.name, ...below].join('/'),
          source: { kind: 'folder', root, path: [...below, child.name] },
        });
      } else {
        await walk(child as FileSystemDirectoryHandle, [...below, child.name]);
      }
    }
  };
  await walk(root, []);
  return out;
}

/** The files behind a list of handles (files and folders, as a drop carries them). */
export async function filesFromHandles(handles: readonly FileSystemHandle[]): Promise<SourcedFile[]> {
  const out: SourcedFile[] = [];
  for (const handle of handles) {
    if (isFileHandle(handle)) {
      const file = await fileFromHandle(handle);
      if (file) out.push(file);
    } else {
      out.push(...(await filesUnderFolder(handle as FileSystemDirectoryHandle)));
    }
  }
  return out;
}
