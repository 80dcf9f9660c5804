/**
 * "Export Encrypted": the folder's files as stored (ciphertext and a manifest, docs/format.md
 * "Exports"), for recovery without the server. The server builds the ZIP (GET
 * /api/folders/{id}/export); the browser's download manager saves it, so nothing is decrypted and
 * no key is unlocked. What is exported mirrors the downloads: the selection when there is one,
 * otherwise every file the list shows. The ids travel in the URL, which the server caps.
 */
import type { FileRecord } from '../../api/filesApi.ts';

/** The server's cap on ids in one export URL (docs/api.md, "Export"). */
export const MAX_EXPORT_IDS = 500;

export type ExportChoice =
  | { kind: 'export'; url: string; count: number }
  | { kind: 'nothing' }
  | { kind: 'too-many'; count: number };

export function folderExportUrl(folderId: number, fileIds: readonly number[] | null): string {
  const base = `/api/folders/${folderId}/export`;
  return fileIds === null ? base : `${base}?file_ids=${fileIds.join(',')}`;
}

/**
 * What the action exports: `chosen` (the selection, or the files shown when nothing is selected)
 * out of `allFiles`, the folder's whole list. All of them is asked for without ids.
 */
export function exportChoice(folderId: number, allFiles: readonly FileRecord[], chosen: readonly FileRecord[]): ExportChoice {
  if (chosen.length === 0) return { kind: 'nothing' };
  if (chosen.length === allFiles.length) return { kind: 'export', url: folderExportUrl(folderId, null), count: chosen.length };
  if (chosen.length > MAX_EXPORT_IDS) return { kind: 'too-many', count: chosen.length };
  return { kind: 'export', url: folderExportUrl(folderId, chosen.map((file) => file.id)), count: chosen.length };
}

/** Lets the browser's download manager fetch `url` (same origin; the name comes from the server). */
export function startBrowserDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
