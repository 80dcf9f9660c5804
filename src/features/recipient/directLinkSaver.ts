// The public page's direct-to-disk saves (src/features/downloads/direct), offered where the
// browser has the File System Access API: a file through its save dialog, all files into a folder
// the recipient picks. Failures become UserFacingErrors, as in serviceWorkerLinkDownloader.ts.

import {
  canSaveFile,
  canSaveToFolder,
  isDownloadError,
  pickDirectory,
  pickSaveFile,
  saveFilesToFolder,
  saveFileToDisk,
  type DecryptedDownloadSource,
} from '../downloads/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import type { LinkDownloadOptions, LinkZipOptions } from './linkDownloader.ts';
import type { LinkFileSource } from './linkDownloadSources.ts';

export interface LinkDiskSaver {
  canSaveFile(): boolean;
  canSaveToFolder(): boolean;
  /** null: the dialog was cancelled. */
  pickFile(suggestedName: string): Promise<FileSystemFileHandle | null>;
  pickFolder(): Promise<FileSystemDirectoryHandle | null>;
  file(source: LinkFileSource, file: FileSystemFileHandle, options: LinkDownloadOptions): Promise<void>;
  /** Resolves when every file is saved or left out, with the number left out. */
  folder(sources: readonly LinkFileSource[], directory: FileSystemDirectoryHandle, options: LinkZipOptions): Promise<{ failedFiles: number }>;
}

function toSource(source: LinkFileSource): DecryptedDownloadSource {
  return { ...source, requiredHeaders: ['x-encryption-iv'] };
}

async function userFacing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isDownloadError(error) ? new UserFacingError(error.code, error.message) : error;
  }
}

export const directLinkSaver: LinkDiskSaver = {
  canSaveFile,
  canSaveToFolder,
  pickFile: (name) => userFacing(() => pickSaveFile(name)),
  pickFolder: () => userFacing(() => pickDirectory()),
  file: (source, file, { onProgress, signal }) => userFacing(() => saveFileToDisk(toSource(source), file, { onProgress, ...(signal ? { signal } : {}) })),
  folder: (sources, directory, { onProgress, signal, onFileFailed }) =>
    userFacing(async () => {
      const outcome = await saveFilesToFolder(sources.map(toSource), directory, {
        onProgress,
        ...(signal ? { signal } : {}),
        onFileFailed: ({ name, error }) => onFileFailed(name, error),
      });
      return { failedFiles: outcome.failed.length };
    }),
};
