// The shapes of the download contract (README.md in this folder), shared by the one entry
// (startDownload.ts), its status machine (downloadStatus.ts), the plan it sends (downloadPlan.ts)
// and the two places a download runs (serviceWorkerBridge.ts, direct/).
import type { CryptoPool, DownloadError, FileKeyHandle } from '../../../workers/index.ts';
import type { DownloadProgress } from './progressMeter.ts';

export type { DownloadProgress } from './progressMeter.ts';

export interface DecryptedDownloadSource {
  /** Ciphertext URL on our origin, e.g. /api/folders/download/12 or /api/download/{token}/file/12. */
  url: string;
  /** The file name for a single download, or the path inside the ZIP ('dir/sub/a.txt'). */
  name: string;
  /** Plaintext bytes (x-file-size / file_size). */
  plainSize: number;
  /** base64 IV (the x-encryption-iv header value or the file record's encryption_iv). */
  iv: string;
  /** A file key held in the crypto pool (workers/pool.ts). */
  key: FileKeyHandle;
  /**
   * Headers the ciphertext response must carry (spec section 5). Default: x-encryption-iv; the
   * admin route adds x-encrypted-key.
   */
  requiredHeaders?: readonly string[];
}

/**
 * Where a download goes, decided once by the screen that starts it. The first two run in the
 * service worker and end in the browser's download manager; the last two need the File System
 * Access API (direct/pickers.ts) and run in a dedicated worker that writes to disk.
 */
export type DownloadDestination =
  /** One file, saved by the browser under the source's name. */
  | { readonly kind: 'browser-file' }
  /** Several files as one ZIP, each under its `name` as the path inside the archive. */
  | { readonly kind: 'browser-zip'; readonly zipName: string }
  /** One file, written into the handle the save dialog returned. */
  | { readonly kind: 'disk-file'; readonly file: FileSystemFileHandle }
  /**
   * Several files as real files and folders inside the picked folder, each under its `name` as a
   * relative path ('docs/2024/a.txt'): subfolders are created, existing files are never
   * overwritten (a taken name gets ' (2)').
   */
  | { readonly kind: 'disk-folder'; readonly directory: FileSystemDirectoryHandle };

/** What a download needs of the crypto pool: it sends the file keys to the download's worker. */
export type FileKeySender = Pick<CryptoPool, 'sendFileKeys'>;

export interface DownloadOptions {
  onProgress?(progress: DownloadProgress): void;
  signal?: AbortSignal;
}

export interface DownloadRequest extends DownloadOptions {
  /** The pool holding the sources' keys. */
  readonly pool: FileKeySender;
  readonly destination: DownloadDestination;
  /** Exactly one for 'browser-file' and 'disk-file'. */
  readonly sources: readonly DecryptedDownloadSource[];
  /**
   * ZIP and folder only. With this, a file that fails before its first byte is written (HTTP
   * error, missing data, a first record that does not authenticate) is left out and reported here
   * instead of failing the batch; a ZIP's size is then not announced to the download manager. A
   * failure in the middle of a file still fails the whole batch.
   */
  onFileFailed?(failed: FailedZipFile): void;
}

export interface FailedZipFile {
  name: string;
  error: DownloadError;
}

export interface DownloadOutcome {
  /** Bytes handed over: the archive's, or the plaintext of the files written. */
  bytes: number;
  /** Files written (1 for a single file). */
  files: number;
  /** Files left out (only with onFileFailed). */
  failed: FailedZipFile[];
}
