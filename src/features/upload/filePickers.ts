/**
 * Choosing files through the File System Access API where the browser has it (Chromium): the open
 * and folder dialogs, and the handles a drop carries. Unlike `<input type=file>`, these give handles
 * the journal can keep, so an unfinished upload continues after a reload with one click (a
 * permission prompt) instead of a new selection. Feature-detected: elsewhere (Firefox, Safari) the
 * page keeps the inputs and the entry walk of dropTraversal.ts. The end-to-end tests replace only
 * `window.showOpenFilePicker` / `window.showDirectoryPicker` (e2e/support/openPickers.ts).
 */
import { filesFromHandles, filesUnderFolder, type SourcedFile } from './handleTraversal.ts';
import { pickedSources } from './resume/fileSource.ts';
import type { CandidateFile } from './fileSelection.ts';

/** The WICG pickers; not in TypeScript's DOM library yet. */
interface OpenPickerWindow {
  showOpenFilePicker?(options?: { multiple?: boolean; id?: string }): Promise<FileSystemFileHandle[]>;
  showDirectoryPicker?(options?: { mode?: 'read' | 'readwrite'; id?: string }): Promise<FileSystemDirectoryHandle>;
}

interface HandleItem {
  getAsFileSystemHandle?(): Promise<FileSystemHandle | null>;
}

function pickerWindow(): OpenPickerWindow | null {
  return typeof window === 'undefined' ? null : (window as unknown as OpenPickerWindow);
}

/** True where files and folders can be chosen as handles (both dialogs exist). */
export function canPickHandles(): boolean {
  const w = pickerWindow();
  return typeof w?.showOpenFilePicker === 'function' && typeof w.showDirectoryPicker === 'function';
}

function isCancel(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Remembers each file's handle for the journal and returns the files as the page queues them. */
export function rememberSources(files: readonly SourcedFile[]): CandidateFile[] {
  return files.map(({ file, relativePath, source }) => {
    pickedSources.remember({ relativePath, name: file.name, size: file.size, lastModified: file.lastModified }, source);
    return { file, relativePath };
  });
}

/** Files from the open dialog; [] when the person closed it. */
export async function pickFileHandles(): Promise<CandidateFile[]> {
  const picker = pickerWindow()?.showOpenFilePicker;
  if (!picker) return [];
  let handles: FileSystemFileHandle[];
  try {
    handles = await picker.call(window, { multiple: true, id: 'sealdrop-upload' });
  } catch (error) {
    if (isCancel(error)) return [];
    throw error;
  }
  return rememberSources(await filesFromHandles(handles));
}

/** Every file of the folder chosen in the folder dialog; [] when the person closed it. */
export async function pickFolderHandle(): Promise<CandidateFile[]> {
  const picker = pickerWindow()?.showDirectoryPicker;
  if (!picker) return [];
  let root: FileSystemDirectoryHandle;
  try {
    root = await picker.call(window, { mode: 'read', id: 'sealdrop-upload' });
  } catch (error) {
    if (isCancel(error)) return [];
    throw error;
  }
  return rememberSources(await filesUnderFolder(root));
}

/**
 * The handles a drop carries, asked for during the drop event itself (the browser empties the
 * DataTransfer when the handler returns); null where the browser gives none, so the caller walks
 * the entries instead.
 */
export function dropHandlesOf(transfer: DataTransfer): Promise<Array<FileSystemHandle | null>> | null {
  if (!canPickHandles()) return null;
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file') as Array<DataTransferItem & HandleItem>;
  if (items.length === 0 || items.some((item) => typeof item.getAsFileSystemHandle !== 'function')) return null;
  return Promise.all(items.map((item) => item.getAsFileSystemHandle!()));
}

/** The files behind a drop's handles (null: some item had none, walk the entries instead). */
export async function filesFromDropHandles(handles: Array<FileSystemHandle | null>): Promise<CandidateFile[] | null> {
  if (handles.some((handle) => handle === null)) return null;
  return rememberSources(await filesFromHandles(handles as FileSystemHandle[]));
}
