/**
 * Sorting the tree (spec section 2): Name, Uploaded and Last Downloaded are sortable; clicking the
 * sorted column toggles asc/desc, another column starts ascending. Directories always come before
 * files; they are ordered by name (in the chosen direction when sorting by name). A file never
 * downloaded counts as older than any download.
 */
import type { DirectoryNode, FileNode } from './fileTree.ts';

export type FileSortKey = 'name' | 'upload_time' | 'last_downloaded_admin';
export type FileSortOrder = 'asc' | 'desc';

export interface FileSort {
  readonly key: FileSortKey;
  readonly order: FileSortOrder;
}

export const DEFAULT_FILE_SORT: FileSort = { key: 'name', order: 'asc' };

export function nextFileSort(current: FileSort, key: FileSortKey): FileSort {
  if (current.key === key) return { key, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { key, order: 'asc' };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function time(value: string | null): number {
  if (value === null) return Number.NEGATIVE_INFINITY;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

function compareFiles(a: FileNode, b: FileNode, key: FileSortKey): number {
  if (key === 'name') return collator.compare(a.name, b.name) || a.file.id - b.file.id;
  const difference = time(a.file[key]) - time(b.file[key]);
  // Equal times (or two never-downloaded files): by name, so the order is stable and readable.
  if (difference !== 0 && !Number.isNaN(difference)) return difference;
  return collator.compare(a.name, b.name) || a.file.id - b.file.id;
}

export function sortFiles(files: readonly FileNode[], sort: FileSort): FileNode[] {
  const sign = sort.order === 'asc' ? 1 : -1;
  return [...files].sort((a, b) => sign * compareFiles(a, b, sort.key));
}

export function sortDirectories(directories: readonly DirectoryNode[], sort: FileSort): DirectoryNode[] {
  const sign = sort.key === 'name' && sort.order === 'desc' ? -1 : 1;
  return [...directories].sort((a, b) => sign * collator.compare(a.name, b.name));
}
