// The shapes of the download contract (README.md in this folder), shared by the service-worker
// path (startDownload.ts), the plan it sends (downloadPlan.ts) and direct to disk (direct/).
import type { DownloadError, FileKeyHandle } from '../../../workers/index.ts';
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

export interface DownloadOptions {
  onProgress?(progress: DownloadProgress): void;
  signal?: AbortSignal;
}

export interface FailedZipFile {
  name: string;
  error: DownloadError;
}

export interface ZipDownloadOptions extends DownloadOptions {
  /**
   * With this, a file that fails before its first byte is written (HTTP error, missing data, a
   * first record that does not authenticate) is left out and reported here instead of failing the
   * archive; the archive's size is then not announced to the download manager. A failure in the
   * middle of a file still fails the whole archive.
   */
  onFileFailed?(failed: FailedZipFile): void;
}

export interface ZipDownloadOutcome {
  /** Bytes of the archive handed to the browser. */
  bytes: number;
  /** Files written into the archive. */
  files: number;
  failed: FailedZipFile[];
}
