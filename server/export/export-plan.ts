// What an export will hold: the chosen file records (a whole folder or some of its files, in the
// folder's upload order), their manifest, and for each its blob with the stored (ciphertext) size,
// which the ZIP writer needs up front. Every blob is looked up before a byte is written, so an
// export with a missing blob fails at once instead of half-way.
import type { FileRecord } from '../db/repositories/index.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { ExportBlobMissingError, ExportFilesNotFoundError } from './errors.ts';
import { buildManifest, exportBlobPath, type ExportedFolder, type ExportManifest, type ExportTeam } from './manifest.ts';

export interface ExportBlob {
  fileId: number;
  blobKey: string;
  /** Path inside the export: files/<id>.sdrp. */
  path: string;
  /** Stored (ciphertext) bytes. */
  size: number;
  uploadTime: number;
}

export interface ExportPlan {
  manifest: ExportManifest;
  blobs: ExportBlob[];
  exportedAt: number;
}

// Blob lookups in flight at once: enough to hide an object store's latency, few enough for a disk.
const STAT_CONCURRENCY = 8;

/**
 * The folder's files named by `fileIds` (duplicates ignored), in the folder's order; all of them
 * when `fileIds` is null. Ids that are not files of this folder are refused together.
 */
export function selectExportFiles(folderFiles: readonly FileRecord[], fileIds: readonly number[] | null): FileRecord[] {
  if (fileIds === null) return [...folderFiles];
  const wanted = new Set(fileIds);
  const present = new Set(folderFiles.map((file) => file.id));
  const missing = [...wanted].filter((id) => !present.has(id));
  if (missing.length > 0) throw new ExportFilesNotFoundError(missing);
  return folderFiles.filter((file) => wanted.has(file.id));
}

async function statAll(blobs: BlobStore, files: readonly FileRecord[]): Promise<Array<number | null>> {
  const sizes: Array<number | null> = new Array(files.length).fill(null);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < files.length) {
      const index = next++;
      sizes[index] = (await blobs.stat(files[index]!.blobKey))?.size ?? null;
    }
  }
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, files.length) }, worker));
  return sizes;
}

export async function planExport(
  blobs: BlobStore,
  folder: ExportedFolder,
  files: readonly FileRecord[],
  exportedAt: number,
  team: ExportTeam | null,
): Promise<ExportPlan> {
  const sizes = await statAll(blobs, files);
  const missing = files.filter((_file, index) => sizes[index] === null).map((file) => file.id);
  if (missing.length > 0) throw new ExportBlobMissingError(missing);
  return {
    manifest: buildManifest(folder, files, exportedAt, team),
    blobs: files.map((file, index) => ({
      fileId: file.id,
      blobKey: file.blobKey,
      path: exportBlobPath(file.id),
      size: sizes[index]!,
      uploadTime: file.uploadTime,
    })),
    exportedAt,
  };
}
