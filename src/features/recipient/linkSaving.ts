// The public page's downloads through the download engine (src/features/downloads), exactly as on
// the admin's side: a file, or the link's files as one ZIP, through the service worker to the
// browser's downloads; where the browser has the File System Access API a file goes through its
// save dialog and 'Save All to Folder...' into a folder the recipient picks. The destination is
// chosen here, once; the engine's typed failures become UserFacingErrors so the page shows their
// text.

import {
  canSaveFile,
  isDownloadError,
  pickDirectory,
  pickSaveFile,
  startDownload,
  type DownloadDestination,
  type DownloadProgress,
  type FileKeySender,
} from '../downloads/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { downloadErrorText } from '../../lib/userTexts.ts';
import type { LinkFileSource } from './linkDownloadSources.ts';

async function userFacing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isDownloadError(error) ? new UserFacingError(error.code, downloadErrorText(error)) : error;
  }
}

/** Where one file goes: the save dialog's file where there is one, else the browser's downloads; null: cancelled. */
export function chooseFileDestination(name: string): Promise<DownloadDestination | null> {
  return userFacing(async () => {
    if (!canSaveFile()) return { kind: 'browser-file' };
    const file = await pickSaveFile(name);
    return file ? { kind: 'disk-file', file } : null;
  });
}

/** The folder 'Save All to Folder...' writes into; null: the dialog was cancelled. */
export function chooseFolderDestination(): Promise<DownloadDestination | null> {
  return userFacing(async () => {
    const directory = await pickDirectory();
    return directory ? { kind: 'disk-folder', directory } : null;
  });
}

export interface LinkSaveOptions {
  onProgress(progress: DownloadProgress): void;
  signal: AbortSignal;
  /** A ZIP or folder: a file that failed before its first byte is left out and counted. */
  skipFailedFiles: boolean;
}

/** Resolves when everything is written or left out, with the number of files left out. */
export function saveLinkFiles(
  pool: FileKeySender,
  destination: DownloadDestination,
  sources: readonly LinkFileSource[],
  { onProgress, signal, skipFailedFiles }: LinkSaveOptions,
): Promise<{ failedFiles: number }> {
  return userFacing(async () => {
    const outcome = await startDownload({
      pool,
      destination,
      // The link's file route sends x-encryption-iv and never x-encrypted-key (docs/api.md).
      sources: sources.map((source) => ({ ...source, requiredHeaders: ['x-encryption-iv'] })),
      onProgress,
      signal,
      ...(skipFailedFiles ? { onFileFailed: () => undefined } : {}),
    });
    return { failedFiles: outcome.failed.length };
  });
}
