// An export is a directory or a ZIP of the same layout (docs/format.md "Exports"); both are read
// through this one small interface: the manifest's bytes, and one blob at a time as a stream (never
// a whole blob in memory). open-export.ts picks the implementation from what the path is.
import type { Readable } from 'node:stream';

/** A manifest larger than this is not one we wrote (a million files is about 500 MB less than this). */
export const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;
export const READ_CHUNK_BYTES = 1024 * 1024;

export interface OpenedBlob {
  stream: Readable;
  /** Length of the blob as the export records it (file size, or the ZIP entry's size). */
  bytes: number;
}

export interface ExportReader {
  readonly kind: 'directory' | 'zip';
  readManifest(): Promise<Buffer>;
  /** blob is a checked "files/<id>.sdrp"; a blob that is not there is FileRecoveryError BLOB_MISSING. */
  openBlob(blob: string): Promise<OpenedBlob>;
  close(): Promise<void>;
}
