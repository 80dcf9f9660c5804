// Streaming decrypt-to-disk downloads (README.md in this folder).
export { holdsOneFile, startDownload } from './startDownload.ts';
export type {
  DecryptedDownloadSource,
  DownloadDestination,
  DownloadOptions,
  DownloadOutcome,
  DownloadProgress,
  DownloadRequest,
  FailedZipFile,
  FileKeySender,
} from './types.ts';
export { DownloadError, isDownloadError, type DownloadErrorCode } from '../../../workers/index.ts';
export { controllingServiceWorker } from './serviceWorkerBridge.ts';
export { canSaveFile, canSaveToFolder, pickDirectory, pickSaveFile } from './direct/index.ts';
