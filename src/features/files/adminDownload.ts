/**
 * One admin download, outside React: the selected files' keys are opened with the unlocked
 * private key inside the crypto pool, the streaming download runs (src/features/downloads), and
 * the file keys are released from the pool whatever happens. Several files go into one ZIP with
 * their directory paths; one file is saved as itself.
 */
import { adminFileDownloadUrl, type FileRecord } from '../../api/filesApi.ts';
import type { CryptoPool } from '../../../workers/pool.ts';
import type { FileKeyHandle, PrivateKeyHandle } from '../../../workers/pool-types.ts';
import { startFileDownload, startZipDownload, type DecryptedDownloadSource, type DownloadProgress } from '../downloads/index.ts';
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

async function unwrapAll(pool: CryptoPool, privateKey: PrivateKeyHandle, files: readonly FileRecord[]): Promise<FileKeyHandle[]> {
  const results = await Promise.allSettled(files.map((file) => pool.unwrapFileKey(privateKey, file.encrypted_key)));
  const keys = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await releaseAll(pool, keys);
    throw failure.reason;
  }
  return keys;
}

async function releaseAll(pool: CryptoPool, keys: readonly FileKeyHandle[]): Promise<void> {
  await Promise.all(keys.map((key) => pool.releaseKey(key).catch(() => undefined)));
}

export async function downloadAdminFiles(request: AdminDownloadRequest): Promise<void> {
  const { files, zipName, pool } = request;
  if (files.length === 0) return;
  const keys = await unwrapAll(pool, request.privateKey, files);
  const options = { ...(request.onProgress ? { onProgress: request.onProgress } : {}), ...(request.signal ? { signal: request.signal } : {}) };
  try {
    if (zipName === null) {
      const file = files[0]!;
      await startFileDownload(source(file, keys[0]!, file.original_filename), options);
    } else {
      const names = zipEntryNames(files);
      await startZipDownload(
        zipName,
        files.map((file, i) => source(file, keys[i]!, names.get(file.id)!)),
        options,
      );
    }
  } finally {
    await releaseAll(pool, keys);
  }
}
