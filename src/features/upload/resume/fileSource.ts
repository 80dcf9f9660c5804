// Where a picked or dropped file came from, in browsers with the File System Access API (Chromium):
// a file handle, or the folder handle it was found under with its path inside that folder. The
// journal keeps this beside an unfinished upload (IndexedDB stores handles by structured clone), so
// a later page can open the same file again after one permission prompt instead of asking the
// person to select it again. Firefox has no handles: nothing is recorded and nothing changes there.
import type { FileIdentity } from '../engine/enginePorts.ts';

export type FileSource =
  | { readonly kind: 'file'; readonly handle: FileSystemFileHandle }
  /** `path`: the names below `root` down to the file, the file's own name last. */
  | { readonly kind: 'folder'; readonly root: FileSystemDirectoryHandle; readonly path: readonly string[] };

/** What identifies a picked file before it has a link: the same fields as entryIdOf, without the link. */
export type PickedIdentity = Omit<FileIdentity, 'linkToken'>;

function keyOf(file: PickedIdentity): string {
  return JSON.stringify([file.relativePath, file.name, file.size, file.lastModified]);
}

/**
 * The sources of the files picked in this tab, until they are queued and opened by the engine (the
 * journal asks here when it writes a new entry). The page is one per tab, so one map serves it.
 * A file picked twice keeps its latest source.
 */
export class PickedSources {
  private readonly sources = new Map<string, FileSource>();

  remember(file: PickedIdentity, source: FileSource): void {
    this.sources.set(keyOf(file), source);
  }

  sourceOf(file: PickedIdentity): FileSource | undefined {
    return this.sources.get(keyOf(file));
  }

  clear(): void {
    this.sources.clear();
  }
}

export const pickedSources = new PickedSources();
