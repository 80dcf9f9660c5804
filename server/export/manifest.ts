// The manifest of an export (docs/format.md, "Exports (recovery without the server)"): what each
// blob of the export is. Built from the file records, and for a team folder from its signed member
// list and envelopes (format_version 2: a member's key backup opens the epoch keys its files are
// sealed to); the values are passed through exactly as stored (base64 keys, lower-case hex hash).
import type { FileRecord } from '../db/repositories/index.ts';

export const EXPORT_FORMAT = 'sealdrop-export';
/** A personal folder's export keeps version 1, which every earlier recover command reads. */
export const EXPORT_FORMAT_VERSION = 1;
export const TEAM_EXPORT_FORMAT_VERSION = 2;
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
  /** Version 2 only: the epoch whose key `encrypted_key` is sealed to; null: the owner's account key. */
  key_epoch?: number | null;
}

/** A team folder's key material, all of it sealed or signed: nothing here opens a file without a member's private key. */
export interface ExportTeam {
  /** Every signed version of the member list, first to last (as GET /folders/{id}/team answers). */
  manifests: Array<{ manifest: string; signature: string; signer_public_key_spki: string }>;
  /** Every current member's envelopes of the epoch keys. */
  envelopes: Array<{ user_id: number; epoch: number; envelope: string }>;
}

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  format_version: typeof EXPORT_FORMAT_VERSION | typeof TEAM_EXPORT_FORMAT_VERSION;
  exported_at: string;
  folder: { id: number; title: string };
  /** Version 2 only. */
  team?: ExportTeam;
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

/** `team` null: a personal folder (version 1, as before team folders existed). */
export function buildManifest(folder: ExportedFolder, files: readonly FileRecord[], exportedAt: number, team: ExportTeam | null): ExportManifest {
  const fileEntries = files.map(
    (file): ExportManifestFile => ({
      id: file.id,
      blob: exportBlobPath(file.id),
      relative_path: file.relativePath,
      name: file.originalFilename,
      size: file.fileSize,
      sha256: file.fileHash,
      encrypted_key: file.encryptedKey,
      iv: file.encryptionIv,
      upload_time: new Date(file.uploadTime).toISOString(),
      ...(team === null ? {} : { key_epoch: file.keyEpoch ?? null }),
    }),
  );
  return {
    format: EXPORT_FORMAT,
    format_version: team === null ? EXPORT_FORMAT_VERSION : TEAM_EXPORT_FORMAT_VERSION,
    exported_at: new Date(exportedAt).toISOString(),
    folder: { id: folder.id, title: folder.title },
    ...(team === null ? {} : { team }),
    files: fileEntries,
  };
}

/** The bytes of manifest.json: UTF-8 JSON, indented so that a person can read it. */
export function serialiseManifest(manifest: ExportManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}
