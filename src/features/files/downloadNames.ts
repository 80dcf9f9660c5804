/**
 * Names of what the admin downloads (spec section 9): ZIPs are named from the folder title
 * sanitised to letters, digits, underscore and hyphen, plus a suffix ('_files.zip' for a selection
 * or everything, '_{directory}.zip' for a directory). Inside a ZIP every file keeps its directory
 * path; two files with the same path get ' (2)', ' (3)' ... before the extension.
 */
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

function withCounter(path: string, counter: number): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot > slash + 1) return `${path.slice(0, dot)} (${counter})${path.slice(dot)}`;
  return `${path} (${counter})`;
}

/** file id -> path inside the ZIP ('docs/2024/report.pdf'), unique (case-insensitively). */
export function zipEntryNames(files: readonly FileRecord[]): Map<number, string> {
  const taken = new Set<string>();
  const names = new Map<number, string>();
  for (const file of files) {
    const { directories, name } = storedPath(file.stored_filename);
    const base = [...directories, file.original_filename || name].join('/');
    let candidate = base;
    for (let counter = 2; taken.has(candidate.toLowerCase()); counter++) candidate = withCounter(base, counter);
    taken.add(candidate.toLowerCase());
    names.set(file.id, candidate);
  }
  return names;
}
