/**
 * The one place that asks the browser's File System Access API for somewhere to save: a file
 * (save dialog) or a folder (folder dialog). Feature detection is here too: browsers without the
 * API (Firefox, Safari) keep the service-worker download. The end-to-end tests and the benchmark
 * replace only `window.showSaveFilePicker` / `window.showDirectoryPicker` (with handles from the
 * origin-private file system, whose writables are the real ones); the app has no switch for that.
 */
import { sanitizeName, DownloadError } from '../../../../workers/index.ts';

/** The WICG pickers (Chromium-based browsers); not in TypeScript's DOM library yet. */
interface PickerWindow {
  showSaveFilePicker?(options?: { suggestedName?: string; startIn?: string; id?: string }): Promise<FileSystemFileHandle>;
  showDirectoryPicker?(options?: { mode?: 'read' | 'readwrite'; startIn?: string; id?: string }): Promise<FileSystemDirectoryHandle>;
}

function pickerWindow(): PickerWindow | null {
  return typeof window === 'undefined' ? null : (window as unknown as PickerWindow);
}

/** True where a single file can be saved through a save dialog. */
export function canSaveFile(): boolean {
  return typeof pickerWindow()?.showSaveFilePicker === 'function';
}

/** True where several files can be saved as real files and folders into a picked folder. */
export function canSaveToFolder(): boolean {
  return typeof pickerWindow()?.showDirectoryPicker === 'function';
}

/** The dialog was closed without a choice: not an error, nothing happens. */
function isCancel(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function pickerFailed(): DownloadError {
  return new DownloadError('PICKER_FAILED');
}

/** The file the user chose in the save dialog, or null when they cancelled it. */
export async function pickSaveFile(suggestedName: string): Promise<FileSystemFileHandle | null> {
  const picker = pickerWindow()?.showSaveFilePicker;
  if (!picker) throw pickerFailed();
  try {
    return await picker.call(window, { suggestedName: sanitizeName(suggestedName), startIn: 'downloads' });
  } catch (error) {
    if (isCancel(error)) return null;
    throw pickerFailed();
  }
}

/** The folder the user chose (with write access), or null when they cancelled the dialog. */
export async function pickDirectory(): Promise<FileSystemDirectoryHandle | null> {
  const picker = pickerWindow()?.showDirectoryPicker;
  if (!picker) throw pickerFailed();
  try {
    return await picker.call(window, { mode: 'readwrite', startIn: 'downloads', id: 'sealdrop-save-folder' });
  } catch (error) {
    if (isCancel(error)) return null;
    throw pickerFailed();
  }
}
