// The manifest of an export (docs/format.md, "Exports (recovery without the server)"): what each
// blob of the export is. Built from the file records alone; the values are passed through exactly
// as stored (the wrapped key and IV are already base64, the hash lower-case hex).
import type { FileRecord } from '../db/repositories/index.ts';

export const EXPORT_FORMAT = 'sealdrop-export';
export const EXPORT_FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const BLOBS_DIRECTORY = 'files';

export interface ExportManifestFile {
  id: number;
  /** Always `files/<id>.sdrp`. */
  blob: string;
  /** The file's directory inside the folder, '.' for the top. */
  relative_path: string;
  name: string;
  /** Plaintext bytes. */
  size: number;
  sha256: string;
  encrypted_key: string;
  iv: string;
  upload_time: string;
}

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  format_version: typeof EXPORT_FORMAT_VERSION;
  exported_at: string;
  folder: { id: number; title: string };
  files: ExportManifestFile[];
}

export interface ExportedFolder {
  id: number;
  title: string;
}

/** Where the ciphertext of file `id` lies inside an export. */
export function exportBlobPath(fileId: number): string {
  return `${BLOBS_DIRECTORY}/${fileId}.sdrp`;
}

export function buildManifest(folder: ExportedFolder, files: readonly FileRecord[], exportedAt: number): ExportManifest {
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: new Date(exportedAt).toISOString(),
    folder: { id: folder.id, title: folder.title },
    files: files.map((file) => ({
      id: file.id,
      blob: exportBlobPath(file.id),
      relative_path: file.relativePath,
      name: file.originalFilename,
      size: file.fileSize,
      sha256: file.fileHash,
      encrypted_key: file.encryptedKey,
      iv: file.encryptionIv,
      upload_time: new Date(file.uploadTime).toISOString(),
    })),
  };
}

/** The bytes of manifest.json: UTF-8 JSON, indented so that a person can read it. */
export function serialiseManifest(manifest: ExportManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}
