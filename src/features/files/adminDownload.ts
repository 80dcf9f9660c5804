/**
 * One admin download, outside React: the selected files' keys are opened inside the crypto pool
 * by the team feature's opener (the account key for a personal folder's files, the folder's epoch
 * keys for a team folder's), the streaming download runs to the destination the screen
 * chose (src/features/downloads) with the keys sent from that same pool, and the file keys are
 * released from it whatever happens. Several files go into one ZIP or folder with their directory
 * paths; one file is saved as itself.
 *
 * A batch goes on without the files it cannot decrypt (spec section 8): a file whose key does not
 * unwrap, or whose data fails before its first byte, is left out of the ZIP and named in the
 * outcome ('Could not decrypt n file(s): names'); a batch with nothing left fails with
 * 'No files could be decrypted.'.
 */
import { adminFileDownloadUrl, type FileRecord } from '../../api/filesApi.ts';
import { isCryptoError } from '../../../crypto/index.ts';
import type { CryptoPool, FileKeyHandle } from '../../../workers/index.ts';
import {
  DownloadError,
  holdsOneFile,
  startDownload,
  type DecryptedDownloadSource,
  type DownloadDestination,
  type DownloadProgress,
} from '../downloads/index.ts';
import type { FileKeyOpener } from '../team/index.ts';
import { zipEntryNames } from './downloadNames.ts';

/** The admin route must carry both (spec section 5, "Download (client side)"). */
const ADMIN_REQUIRED_HEADERS = ['x-encrypted-key', 'x-encryption-iv'] as const;

/** What an admin download needs of the crypto pool. */
export type AdminDownloadPool = Pick<CryptoPool, 'sendFileKeys' | 'releaseKeys'>;

export interface AdminDownloadRequest {
  readonly files: readonly FileRecord[];
  /** From chooseSaveDestination (saveDestination.ts): a single file, or a ZIP or folder of several. */
  readonly destination: DownloadDestination;
  /** Opens each file's key in `pool` (src/features/team: fileKeyOpener). */
  readonly openKey: FileKeyOpener;
  /** The pool `openKey` opens keys in; they are sent and released there. */
  readonly pool: AdminDownloadPool;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly signal?: AbortSignal;
  /** The download engine; tests, which have no service worker, record instead. */
  readonly download?: typeof startDownload;
}

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
  return isCryptoError(error) && error.code === 'MALFORMED' ? new DownloadError('KEY_FORMAT') : error;
}

async function unwrapEach(openKey: FileKeyOpener, files: readonly FileRecord[]): Promise<{ opened: UnwrappedFile[]; failed: { file: FileRecord; error: unknown }[] }> {
  const results = await Promise.allSettled(files.map((file) => openKey(file)));
  const opened: UnwrappedFile[] = [];
  const failed: { file: FileRecord; error: unknown }[] = [];
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') opened.push({ file: files[i]!, key: result.value });
    else failed.push({ file: files[i]!, error: unwrapFailure(result.reason) });
  });
  return { opened, failed };
}

export async function downloadAdminFiles(request: AdminDownloadRequest): Promise<AdminDownloadOutcome> {
  const { files, destination, pool, download = startDownload } = request;
  if (files.length === 0) return { notDecrypted: [] };
  const { opened, failed } = await unwrapEach(request.openKey, files);
  const common = {
    pool,
    destination,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  };
  try {
    if (holdsOneFile(destination)) {
      if (failed[0]) throw failed[0].error;
      const { file, key } = opened[0]!;
      await download({ ...common, sources: [source(file, key, file.original_filename)] });
      return { notDecrypted: [] };
    }
    const names = zipEntryNames(files);
    if (opened.length === 0) throw new DownloadError('NOTHING_DECRYPTED');
    const outcome = await download({
      ...common,
      sources: opened.map(({ file, key }) => source(file, key, names.get(file.id)!)),
      onFileFailed: () => undefined,
    });
    if (outcome.files === 0) throw new DownloadError('NOTHING_DECRYPTED');
    return { notDecrypted: [...failed.map(({ file }) => names.get(file.id)!), ...outcome.failed.map(({ name }) => name)] };
  } finally {
    await pool.releaseKeys(opened.map(({ key }) => key));
  }
}
