// One-click resume (Chromium): the unfinished files are opened again through the handles their
// entries kept, after the browser's permission prompt (which needs the click that started this),
// instead of a new selection. A kept folder is read again whole, as selecting the same folder
// again would be: its files that never started are queued too, and the ones an interrupted visit
// stored are left out by the page as after a re-selection.
//
// The identity check is the re-selection's: same place, name, size and lastModified continues with
// the stored key and IV. A file that changed, vanished or may not be read is not queued: its row
// says to select it again (a changed file then starts over with a fresh key: never the old nonce).
import { filesUnderFolder, type SourcedFile } from '../handleTraversal.ts';
import type { FileSource } from './fileSource.ts';
import type { QueueEntry } from './queueEntry.ts';

/** Why an entry could not be opened again. */
export type ReopenProblem = 'denied' | 'missing' | 'changed';

export interface Reopened {
  /** Files to queue, with their sources (the unfinished ones and, for folders, the rest of the folder). */
  files: SourcedFile[];
  /** By entry id: the entries that need a new selection. */
  problems: Map<string, ReopenProblem>;
}

/** The permission calls of a handle; Chromium has them, TypeScript's DOM library does not yet. */
interface PermissionHandle {
  queryPermission?(descriptor: { mode: 'read' }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: 'read' }): Promise<PermissionState>;
}

/** Read permission for a handle: asked of the person only when not already granted. */
async function mayRead(handle: FileSystemHandle): Promise<boolean> {
  const permissions = handle as unknown as PermissionHandle;
  try {
    if ((await permissions.queryPermission?.({ mode: 'read' })) === 'granted') return true;
    if (typeof permissions.requestPermission !== 'function') return true; // no permission model: reading decides
    return (await permissions.requestPermission({ mode: 'read' })) === 'granted';
  } catch {
    // No user activation left, or the handle's file is gone: a new selection is the way on.
    return false;
  }
}

function isSameFile(entry: QueueEntry, file: File): boolean {
  return file.name === entry.name && file.size === entry.size && file.lastModified === entry.lastModified;
}

async function isSameEntry(a: FileSystemHandle, b: FileSystemHandle): Promise<boolean> {
  return a === b || (await a.isSameEntry(b).catch(() => false));
}

/** The entries under each distinct kept folder (one permission prompt per folder, not per file). */
async function groupByRoot(entries: readonly QueueEntry[]): Promise<Array<{ root: FileSystemDirectoryHandle; entries: QueueEntry[] }>> {
  const groups: Array<{ root: FileSystemDirectoryHandle; entries: QueueEntry[] }> = [];
  for (const entry of entries) {
    const source = entry.source as Extract<FileSource, { kind: 'folder' }>;
    let group: (typeof groups)[number] | undefined;
    for (const candidate of groups) if (await isSameEntry(candidate.root, source.root)) group = candidate;
    if (group) group.entries.push(entry);
    else groups.push({ root: source.root, entries: [entry] });
  }
  return groups;
}

async function reopenFile(entry: QueueEntry, handle: FileSystemFileHandle, out: Reopened): Promise<void> {
  if (!(await mayRead(handle))) return void out.problems.set(entry.id, 'denied');
  let file: File;
  try {
    file = await handle.getFile();
  } catch {
    return void out.problems.set(entry.id, 'missing');
  }
  if (!isSameFile(entry, file)) return void out.problems.set(entry.id, 'changed');
  out.files.push({ file, relativePath: entry.relativePath, source: { kind: 'file', handle } });
}

async function reopenFolder(root: FileSystemDirectoryHandle, entries: readonly QueueEntry[], out: Reopened): Promise<void> {
  const fail = (problem: ReopenProblem) => entries.forEach((entry) => out.problems.set(entry.id, problem));
  if (!(await mayRead(root))) return fail('denied');
  let found: SourcedFile[];
  try {
    found = await filesUnderFolder(root);
  } catch {
    return fail('missing');
  }
  const changed = new Set<SourcedFile>();
  for (const entry of entries) {
    const here = found.filter((f) => f.relativePath === entry.relativePath && f.file.name === entry.name);
    if (here.length === 0) out.problems.set(entry.id, 'missing');
    else if (!here.some((f) => isSameFile(entry, f.file))) {
      out.problems.set(entry.id, 'changed');
      here.forEach((f) => changed.add(f));
    }
  }
  out.files.push(...found.filter((f) => !changed.has(f)));
}

/** Opens the entries' files again through their kept handles (entries without one are skipped). */
export async function reopenSources(entries: readonly QueueEntry[]): Promise<Reopened> {
  const out: Reopened = { files: [], problems: new Map() };
  const folderEntries: QueueEntry[] = [];
  for (const entry of entries) {
    if (entry.source?.kind === 'file') await reopenFile(entry, entry.source.handle, out);
    else if (entry.source?.kind === 'folder') folderEntries.push(entry);
  }
  for (const group of await groupByRoot(folderEntries)) await reopenFolder(group.root, group.entries, out);
  return out;
}
