/**
 * A file of a direct download carries its real name only once it is complete: it is
 * written under `<name>.part` and renamed when its writable has committed. Whatever ends the
 * download before that (a failure, an abort, the tab closed, the page terminating this worker)
 * leaves no file under the real name that looks saved but is empty or short: at most a `.part`
 * entry, whose name says what it is. Every failure this worker sees removes the `.part` entry too.
 *
 * Renaming is FileSystemHandle.move(name), which Chromium has for the files of a picked folder or
 * save dialog as for the origin-private file system. A handle without move() is written under its
 * real name and removed on every failure this worker sees; only a terminated worker could then
 * leave it behind.
 */

/** What a file's name ends with while it is being written. */
export const PARTIAL_SUFFIX = '.part';

export interface PartialFile {
  /** Where the bytes go: the `.part` entry (or the real one, without move()). */
  readonly handle: FileSystemFileHandle;
  /** Gives the written file its real name. */
  commit(): Promise<void>;
  /** Removes the entry after a failure. Never throws. */
  discard(): Promise<void>;
}

type MovableHandle = FileSystemFileHandle & { move?: (name: string) => Promise<void>; remove?: () => Promise<void> };

/** Whether `handle` can be renamed in place. */
export function canRename(handle: FileSystemFileHandle): boolean {
  return typeof (handle as MovableHandle).move === 'function';
}

/** Renames `handle` within its directory. */
export function rename(handle: FileSystemFileHandle, name: string): Promise<void> {
  return (handle as MovableHandle).move!(name);
}

/** Removes a file the save dialog handed out (FileSystemHandle.remove() is Chromium's). Never throws. */
async function removeHandle(handle: FileSystemFileHandle): Promise<void> {
  await (handle as MovableHandle).remove?.().catch(() => undefined);
}

/**
 * The file the user picked in the save dialog (the dialog created it, empty, under the chosen
 * name): renamed to `<name>.part` before the first byte, and back once complete.
 */
export async function partialPickedFile(handle: FileSystemFileHandle): Promise<PartialFile> {
  const name = handle.name;
  const inPlace: PartialFile = { handle, commit: async () => undefined, discard: () => removeHandle(handle) };
  if (!canRename(handle)) return inPlace;
  try {
    await rename(handle, name + PARTIAL_SUFFIX);
  } catch (error) {
    // The file stays where the user put it; only a terminated worker could leave it empty there.
    console.warn('direct download: the picked file could not be renamed while it is written', error);
    return inPlace;
  }
  return { handle, commit: () => rename(handle, name), discard: () => removeHandle(handle) };
}
