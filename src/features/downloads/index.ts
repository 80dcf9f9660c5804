// Streaming decrypt-to-disk downloads (README.md in this folder).
export { startFileDownload, startZipDownload } from './startDownload.ts';
export type {
  DecryptedDownloadSource,
  DownloadOptions,
  DownloadProgress,
  FailedZipFile,
  ZipDownloadOptions,
  ZipDownloadOutcome,
} from './types.ts';
export { DownloadError, isDownloadError, DOWNLOAD_MESSAGES, type DownloadErrorCode } from '../../../workers/index.ts';
export { controllingServiceWorker } from './serviceWorkerBridge.ts';
export { canSaveFile, canSaveToFolder, pickDirectory, pickSaveFile, saveFileToDisk, saveFilesToFolder, type FolderSaveOutcome } from './direct/index.ts';
