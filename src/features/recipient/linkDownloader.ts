// The seam between the public page and the streaming download service (src/features/downloads):
// one file, or the link's files as one ZIP, decrypted in the service worker and streamed to disk.

import type { LinkFileSource } from './linkDownloadSources.ts';

export interface LinkDownloadProgress {
  bytes: number;
  totalBytes: number;
}

export interface LinkDownloadOptions {
  onProgress(progress: LinkDownloadProgress): void;
  signal?: AbortSignal;
}

export interface LinkZipOptions extends LinkDownloadOptions {
  /** A file skipped from the archive (it failed before its first byte was written). */
  onFileFailed(name: string, error: unknown): void;
}

export interface LinkDownloader {
  file(source: LinkFileSource, options: LinkDownloadOptions): Promise<void>;
  /** Resolves when the archive is complete, with the number of files left out. */
  zip(zipName: string, sources: readonly LinkFileSource[], options: LinkZipOptions): Promise<{ failedFiles: number }>;
}
