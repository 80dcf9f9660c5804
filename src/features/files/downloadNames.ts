/**
 * Names of what the admin downloads (spec section 9): ZIPs are named from the folder title
 * sanitised to letters, digits, underscore and hyphen, plus a suffix ('_files.zip' for a selection
 * or everything, '_{directory}.zip' for a directory). Inside a ZIP every file keeps its directory
 * path, made safe by the workers' one set of name rules (uniqueEntryPaths); two files with the
 * same path get ' (2)', ' (3)' ... before the extension.
 */
import { uniqueEntryPaths } from '../../../workers/index.ts';
import type { FileRecord } from '../../api/filesApi.ts';
import { storedPath } from './fileTree.ts';

export function sanitizeForZipName(text: string): string {
  const sanitized = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return sanitized === '' ? 'folder' : sanitized;
}

export function folderZipName(folderTitle: string): string {
  return `${sanitizeForZipName(folderTitle)}_files.zip`;
}

export function directoryZipName(folderTitle: string, directoryPath: string): string {
  const last = directoryPath.split('/').filter(Boolean).pop() ?? '';
  return `${sanitizeForZipName(folderTitle)}_${sanitizeForZipName(last)}.zip`;
}

/** file id -> path inside the ZIP ('docs/2024/report.pdf'), safe and unique (case-insensitively). */
export function zipEntryNames(files: readonly FileRecord[]): Map<number, string> {
  const paths = uniqueEntryPaths(
    files.map((file) => {
      const { directories, name } = storedPath(file.stored_filename);
      return [...directories, file.original_filename || name].join('/');
    }),
  );
  return new Map(files.map((file, index) => [file.id, paths[index]!]));
}
