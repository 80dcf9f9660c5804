/**
 * Where each file of a tree goes inside the folder the user picked: its directories are created
 * (or reused when they exist), and the file gets its own name, or ' (2)', ' (3)' ... when that name
 * is taken: nothing that is already on the disk is overwritten. The file is written under
 * `<name>.part` and takes its name only once complete (partialFile.ts); a file that fails is
 * removed again, so only complete files carry their names (directories created for it stay; they
 * may hold other files).
 */
import { candidateNames, treePath } from '../treePaths.ts';
import { domErrorName } from './domErrorName.ts';
import { canRename, PARTIAL_SUFFIX, rename, type PartialFile } from './partialFile.ts';

export interface TreeFile extends PartialFile {
  /** Where it is saved, relative to the picked folder ('docs/report (2).pdf'); final after commit(). */
  readonly savedPath: string;
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
  const directory = parent;
  const freeName = async (): Promise<string> => {
    for (const candidate of candidateNames(name)) {
      if (!(await isTaken(directory, candidate)) && !(await isTaken(directory, candidate + PARTIAL_SUFFIX))) return candidate;
    }
    throw new Error(`no free name for "${relativePath}"`);
  };
  let final = await freeName();
  let entry = final + PARTIAL_SUFFIX;
  let handle = await directory.getFileHandle(entry, { create: true });
  if (!canRename(handle)) {
    await directory.removeEntry(entry).catch(() => undefined);
    entry = final;
    handle = await directory.getFileHandle(entry, { create: true });
  }
  return {
    handle,
    get savedPath() {
      return [...saved, final].join('/');
    },
    commit: async () => {
      if (entry === final) return;
      // Another download into the same folder may have taken the name meanwhile: never overwrite.
      if (await isTaken(directory, final)) final = await freeName();
      await rename(handle, final);
      entry = final;
    },
    discard: () => directory.removeEntry(entry).catch(() => undefined),
  };
}
