/**
 * Where each file of a tree goes inside the folder the user picked: its directories are created
 * (or reused when they exist), and the file gets its own name, or ' (2)', ' (3)' ... when that name
 * is taken: nothing that is already on the disk is overwritten. A file that fails is removed again,
 * so only complete files remain (directories created for it stay; they may hold other files).
 */
import { candidateNames, treePath } from '../treePaths.ts';
import { domErrorName } from './domErrorName.ts';

export interface TreeFile {
  readonly handle: FileSystemFileHandle;
  /** Where it was saved, relative to the picked folder ('docs/report (2).pdf'). */
  readonly savedPath: string;
  /** Removes the file (after a failure). Never throws. */
  discard(): Promise<void>;
}

/** The directory `name` inside `parent`, created if missing; a file of that name is passed over. */
async function directoryIn(parent: FileSystemDirectoryHandle, name: string): Promise<[FileSystemDirectoryHandle, string]> {
  for (const candidate of candidateNames(name)) {
    try {
      return [await parent.getDirectoryHandle(candidate, { create: true }), candidate];
    } catch (error) {
      if (domErrorName(error) !== 'TypeMismatchError') throw error;
    }
  }
  throw new Error(`no free name for the folder "${name}"`);
}

async function isTaken(parent: FileSystemDirectoryHandle, name: string): Promise<boolean> {
  try {
    await parent.getFileHandle(name);
    return true;
  } catch (error) {
    const kind = domErrorName(error);
    if (kind === 'NotFoundError') return false;
    if (kind === 'TypeMismatchError') return true; // a directory of that name
    throw error;
  }
}

/** Creates the file for `relativePath` under `root` (see the header for the naming rules). */
export async function createTreeFile(root: FileSystemDirectoryHandle, relativePath: string): Promise<TreeFile> {
  const { directories, name } = treePath(relativePath);
  let parent = root;
  const saved: string[] = [];
  for (const directory of directories) {
    const [handle, used] = await directoryIn(parent, directory);
    parent = handle;
    saved.push(used);
  }
  for (const candidate of candidateNames(name)) {
    if (await isTaken(parent, candidate)) continue;
    const handle = await parent.getFileHandle(candidate, { create: true });
    const directory = parent;
    return {
      handle,
      savedPath: [...saved, candidate].join('/'),
      discard: () => directory.removeEntry(candidate).catch(() => undefined),
    };
  }
  throw new Error(`no free name for "${relativePath}"`);
}
