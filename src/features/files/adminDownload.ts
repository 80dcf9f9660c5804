/**
 * One admin download, outside React: the selected files' keys are opened with the unlocked
 * private key inside the crypto pool, the streaming download runs (src/features/downloads), and
 * the file keys are released from the pool whatever happens. Several files go into one ZIP with
 * their directory paths; one file is saved as itself.
 *
 * A batch goes on without the files it cannot decrypt (spec section 8): a file whose key does not
 * unwrap, or whose data fails before its first byte, is left out of the ZIP and named in the
 * outcome ('Could not decrypt n file(s): names'); a batch with nothing left fails with
 * 'No files could be decrypted.'.
 */
import { adminFileDownloadUrl, type FileRecord } from '../../api/filesApi.ts';
import { isCryptoError } from '../../../crypto/index.ts';
import type { CryptoPool, FileKeyHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import {
  DOWNLOAD_MESSAGES,
  DownloadError,
  startFileDownload,
  startZipDownload,
  type DecryptedDownloadSource,
  type DownloadProgress,
} from '../downloads/index.ts';
import { zipEntryNames } from './downloadNames.ts';

/** The admin route must carry both (spec section 5, "Download (client side)"). */
const ADMIN_REQUIRED_HEADERS = ['x-encrypted-key', 'x-encryption-iv'] as const;

export interface AdminDownloadRequest {
  readonly files: readonly FileRecord[];
  /** null: exactly one file, saved under its own name. */
  readonly zipName: string | null;
  readonly privateKey: PrivateKeyHandle;
  readonly pool: CryptoPool;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly signal?: AbortSignal;
  /**
   * Where the bytes go: the service worker's streaming download (default), or direct to disk
   * (saveDestination.ts); tests, which have no service worker, record instead.
   */
  readonly transfer?: DownloadTransfer;
}

export interface DownloadTransfer {
  readonly file: typeof startFileDownload;
  readonly zip: typeof startZipDownload;
}

const SERVICE_WORKER_TRANSFER: DownloadTransfer = { file: startFileDownload, zip: startZipDownload };

export interface AdminDownloadOutcome {
  /** Paths (as in the ZIP) of the files left out because they could not be decrypted. */
  readonly notDecrypted: readonly string[];
}

interface UnwrappedFile {
  readonly file: FileRecord;
  readonly key: FileKeyHandle;
}

function source(file: FileRecord, key: FileKeyHandle, name: string): DecryptedDownloadSource {
  return {
    url: adminFileDownloadUrl(file.id),
    name,
    plainSize: file.file_size,
    iv: file.encryption_iv,
    key,
    requiredHeaders: ADMIN_REQUIRED_HEADERS,
  };
}

/** A key the server sent that is no wrapped key at all is the server's fault, not the password's. */
function unwrapFailure(error: unknown): unknown {
  return isCryptoError(error) && error.code === 'MALFORMED' ? new DownloadError('KEY_FORMAT', DOWNLOAD_MESSAGES.invalidKeyFormat) : error;
}

async function unwrapEach(pool: CryptoPool, privateKey: PrivateKeyHandle, files: readonly FileRecord[]): Promise<{ opened: UnwrappedFile[]; failed: { file: FileRecord; error: unknown }[] }> {
  const results = await Promise.allSettled(files.map((file) => pool.unwrapFileKey(privateKey, file.encrypted_key)));
  const opened: UnwrappedFile[] = [];
  const failed: { file: FileRecord; error: unknown }[] = [];
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') opened.push({ file: files[i]!, key: result.value });
    else failed.push({ file: files[i]!, error: unwrapFailure(result.reason) });
  });
  return { opened, failed };
}

async function releaseAll(pool: CryptoPool, keys: readonly FileKeyHandle[]): Promise<void> {
  await Promise.all(keys.map((key) => pool.releaseKey(key).catch(() => undefined)));
}

export async function downloadAdminFiles(request: AdminDownloadRequest): Promise<AdminDownloadOutcome> {
  const { files, zipName, pool, transfer = SERVICE_WORKER_TRANSFER } = request;
  if (files.length === 0) return { notDecrypted: [] };
  const { opened, failed } = await unwrapEach(pool, request.privateKey, files);
  const keys = opened.map(({ key }) => key);
  const options = { ...(request.onProgress ? { onProgress: request.onProgress } : {}), ...(request.signal ? { signal: request.signal } : {}) };
  try {
    if (zipName === null) {
      if (failed[0]) throw failed[0].error;
      const { file, key } = opened[0]!;
      await transfer.file(source(file, key, file.original_filename), options);
      return { notDecrypted: [] };
    }
    const names = zipEntryNames(files);
    if (opened.length === 0) throw new DownloadError('NOTHING_DECRYPTED', DOWNLOAD_MESSAGES.nothingDecrypted);
    const outcome = await transfer.zip(
      zipName,
      opened.map(({ file, key }) => source(file, key, names.get(file.id)!)),
      { ...options, onFileFailed: () => undefined },
    );
    if (outcome.files === 0) throw new DownloadError('NOTHING_DECRYPTED', DOWNLOAD_MESSAGES.nothingDecrypted);
    return { notDecrypted: [...failed.map(({ file }) => names.get(file.id)!), ...outcome.failed.map(({ name }) => name)] };
  } finally {
    await releaseAll(pool, keys);
  }
}
