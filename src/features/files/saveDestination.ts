/**
 * Where an admin download is saved. Where the browser has the File System Access API, one file
 * goes through its save dialog and several files may go into a folder the user picks (or, by
 * choice, into a ZIP); elsewhere (Firefox) everything goes through the service worker to the
 * browser's downloads, as before. Cancelling any dialog gives null: nothing happens.
 */
import {
  canSaveFile,
  canSaveToFolder,
  DownloadError,
  pickDirectory,
  pickSaveFile,
  saveFilesToFolder,
  saveFileToDisk,
  startFileDownload,
  startZipDownload,
} from '../downloads/index.ts';
import type { FileRecord } from '../../api/filesApi.ts';
import type { DownloadTransfer } from './adminDownload.ts';
import type { SaveChoice } from './SaveChoiceDialog.tsx';

export interface DownloadTarget {
  readonly files: readonly FileRecord[];
  /** null for a single file saved as itself. */
  readonly zipName: string | null;
  /** What the progress panel names: the file or the archive. */
  readonly label: string;
}

export type SaveDestination =
  /** The service worker's stream to the browser's download manager (a file or a ZIP). */
  | { readonly kind: 'browser' }
  | { readonly kind: 'file'; readonly file: FileSystemFileHandle }
  | { readonly kind: 'folder'; readonly directory: FileSystemDirectoryHandle };

type AskSaveChoice = (request: { fileCount: number; zipName: string }) => Promise<SaveChoice | null>;

export async function chooseSaveDestination(target: DownloadTarget, askSaveChoice: AskSaveChoice): Promise<SaveDestination | null> {
  if (target.zipName === null) {
    if (!canSaveFile()) return { kind: 'browser' };
    const file = await pickSaveFile(target.files[0]?.original_filename ?? target.label);
    return file ? { kind: 'file', file } : null;
  }
  if (!canSaveToFolder()) return { kind: 'browser' };
  const choice = await askSaveChoice({ fileCount: target.files.length, zipName: target.zipName });
  if (choice !== 'folder') return choice === 'zip' ? { kind: 'browser' } : null;
  const directory = await pickDirectory();
  return directory ? { kind: 'folder', directory } : null;
}

function notForThisDestination(): never {
  throw new DownloadError('FAILED', 'This download does not fit the place chosen to save it. Start it again.');
}

export function transferTo(destination: SaveDestination): DownloadTransfer {
  switch (destination.kind) {
    case 'browser':
      return { file: startFileDownload, zip: startZipDownload };
    case 'file':
      return { file: (source, options) => saveFileToDisk(source, destination.file, options), zip: notForThisDestination };
    case 'folder':
      return { file: notForThisDestination, zip: (_zipName, sources, options) => saveFilesToFolder(sources, destination.directory, options) };
  }
}
