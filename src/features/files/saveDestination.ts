/**
 * Where an admin download is saved. Where the browser has the File System Access API, one file
 * goes through its save dialog and several files may go into a folder the user picks (or, by
 * choice, into a ZIP); elsewhere (Firefox) everything goes through the service worker to the
 * browser's downloads, as before. Cancelling any dialog gives null: nothing happens.
 */
import { canSaveFile, canSaveToFolder, pickDirectory, pickSaveFile, type DownloadDestination } from '../downloads/index.ts';
import type { FileRecord } from '../../api/filesApi.ts';
import type { SaveChoice } from './SaveChoiceDialog.tsx';

export interface DownloadTarget {
  readonly files: readonly FileRecord[];
  /** null for a single file saved as itself. */
  readonly zipName: string | null;
  /** What the progress panel names: the file or the archive. */
  readonly label: string;
}

type AskSaveChoice = (request: { fileCount: number; zipName: string }) => Promise<SaveChoice | null>;

/** The one decision of where an admin download goes (file, ZIP or folder); null: a dialog was cancelled. */
export async function chooseSaveDestination(target: DownloadTarget, askSaveChoice: AskSaveChoice): Promise<DownloadDestination | null> {
  if (target.zipName === null) {
    if (!canSaveFile()) return { kind: 'browser-file' };
    const file = await pickSaveFile(target.files[0]?.original_filename ?? target.label);
    return file ? { kind: 'disk-file', file } : null;
  }
  const zip = { kind: 'browser-zip', zipName: target.zipName } as const;
  if (!canSaveToFolder()) return zip;
  const choice = await askSaveChoice({ fileCount: target.files.length, zipName: target.zipName });
  if (choice !== 'folder') return choice === 'zip' ? zip : null;
  const directory = await pickDirectory();
  return directory ? { kind: 'disk-folder', directory } : null;
}
