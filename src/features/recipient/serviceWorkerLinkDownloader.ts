// The public page's downloads through the shared streaming service (src/features/downloads):
// decrypted record by record in the service worker and streamed to disk, exactly as on the
// admin's side. Its typed failures are turned into UserFacingErrors so the page shows their text.

import { isDownloadError, startFileDownload, startZipDownload, type DecryptedDownloadSource } from '../downloads/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import type { LinkDownloader } from './linkDownloader.ts';
import type { LinkFileSource } from './linkDownloadSources.ts';

function toSource(source: LinkFileSource): DecryptedDownloadSource {
  // The link's file route sends x-encryption-iv and never x-encrypted-key (docs/api.md).
  return { ...source, requiredHeaders: ['x-encryption-iv'] };
}

function userFacing(error: unknown): unknown {
  return isDownloadError(error) ? new UserFacingError(error.code, error.message) : error;
}

export const serviceWorkerLinkDownloader: LinkDownloader = {
  async file(source, { onProgress, signal }) {
    try {
      await startFileDownload(toSource(source), { onProgress, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw userFacing(error);
    }
  },
  async zip(zipName, sources, { onProgress, signal, onFileFailed }) {
    try {
      const outcome = await startZipDownload(zipName, sources.map(toSource), {
        onProgress,
        ...(signal ? { signal } : {}),
        onFileFailed: ({ name, error }) => onFileFailed(name, error),
      });
      return { failedFiles: outcome.failed.length };
    } catch (error) {
      throw userFacing(error);
    }
  },
};
