/**
 * Selection (spec section 4): a set of file ids. With the 'Never Downloaded' filter on, only
 * never-downloaded files are selectable and count; a directory's checkbox is checked,
 * indeterminate or unchecked by its selectable descendants.
 */
import type { FileRecord } from '../../api/filesApi.ts';
import type { DirectoryNode } from './fileTree.ts';

export type CheckState = 'checked' | 'indeterminate' | 'unchecked';

export function isNeverDownloaded(file: FileRecord): boolean {
  return file.last_downloaded_admin === null;
}

export function isSelectable(file: FileRecord, neverDownloadedOnly: boolean): boolean {
  return !neverDownloadedOnly || isNeverDownloaded(file);
}

export function selectableFiles(files: readonly FileRecord[], neverDownloadedOnly: boolean): FileRecord[] {
  return files.filter((file) => isSelectable(file, neverDownloadedOnly));
}

export function checkState(files: readonly FileRecord[], selected: ReadonlySet<number>, neverDownloadedOnly: boolean): CheckState {
  const selectable = selectableFiles(files, neverDownloadedOnly);
  const count = selectable.filter((file) => selected.has(file.id)).length;
  if (count === 0) return 'unchecked';
  return count === selectable.length ? 'checked' : 'indeterminate';
}

export function directoryCheckState(directory: DirectoryNode, selected: ReadonlySet<number>, neverDownloadedOnly: boolean): CheckState {
  return checkState(directory.descendants, selected, neverDownloadedOnly);
}

/** A checked group is cleared; an unchecked or partly checked one becomes fully selected. */
export function toggleGroup(files: readonly FileRecord[], selected: ReadonlySet<number>, neverDownloadedOnly: boolean): Set<number> {
  const next = new Set(selected);
  const selectable = selectableFiles(files, neverDownloadedOnly);
  if (checkState(files, selected, neverDownloadedOnly) === 'checked') for (const file of selectable) next.delete(file.id);
  else for (const file of selectable) next.add(file.id);
  return next;
}

export function toggleFile(fileId: number, selected: ReadonlySet<number>): Set<number> {
  const next = new Set(selected);
  if (next.has(fileId)) next.delete(fileId);
  else next.add(fileId);
  return next;
}

/** Only ids of files that exist and are selectable now (after a reload, a delete or a filter change). */
export function pruneSelection(selected: ReadonlySet<number>, files: readonly FileRecord[], neverDownloadedOnly: boolean): Set<number> {
  const allowed = new Set(selectableFiles(files, neverDownloadedOnly).map((file) => file.id));
  return new Set([...selected].filter((id) => allowed.has(id)));
}

/** The selected files, in the folder's order. */
export function selectedFiles(files: readonly FileRecord[], selected: ReadonlySet<number>, neverDownloadedOnly: boolean): FileRecord[] {
  return selectableFiles(files, neverDownloadedOnly).filter((file) => selected.has(file.id));
}
