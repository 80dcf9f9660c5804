// Turning a drop into files with their folders. A dropped folder arrives as a FileSystemEntry
// tree (webkitGetAsEntry), walked here; each file keeps the directory it was found in, starting
// with the dropped folder's own name. The entries must be taken from the DataTransfer during the
// drop event itself (the browser empties it afterwards), so `entriesOf` is synchronous and the
// walk comes after.

import { directoryOf, isIgnoredFile, type CandidateFile } from './fileSelection.ts';

/** Everything a drop carried: walkable entries where the browser offers them, plain files otherwise. */
export interface DroppedItems {
  entries: FileSystemEntry[];
  files: File[];
}

export function entriesOf(transfer: DataTransfer): DroppedItems {
  const entries: FileSystemEntry[] = [];
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file');
  for (const item of items) {
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
  }
  if (entries.length > 0) return { entries, files: [] };
  return { entries: [], files: Array.from(transfer.files ?? []) };
}

function isFileEntry(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function isDirectoryEntry(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

function fileOfEntry(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** A directory's children; readEntries hands them out in portions until it returns none. */
async function childrenOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const portion = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (portion.length === 0) return children;
    children.push(...portion);
  }
}

export async function collectDroppedFiles(dropped: DroppedItems): Promise<CandidateFile[]> {
  const out: CandidateFile[] = dropped.files.map((file) => ({ file, relativePath: '.' }));
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (isFileEntry(entry)) {
      if (isIgnoredFile(entry.name)) return;
      out.push({ file: await fileOfEntry(entry), relativePath: directoryOf(entry.fullPath) });
    } else if (isDirectoryEntry(entry)) {
      for (const child of await childrenOf(entry)) await walk(child);
    }
  };
  for (const entry of dropped.entries) await walk(entry);
  return out;
}

/** Files from an <input type="file">: with `webkitdirectory` each carries its path inside the picked folder. */
export function filesFromInput(files: FileList | null): CandidateFile[] {
  return Array.from(files ?? []).map((file) => ({ file, relativePath: file.webkitRelativePath ? directoryOf(file.webkitRelativePath) : '.' }));
}
