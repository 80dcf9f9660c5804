// Which picked or dropped files join the queue (spec sections 2, 5 and 9): system clutter
// (.DS_Store, Thumbs.db) is skipped silently, files over 5120 MB and files beyond the queue's
// capacity are rejected with the spec's messages, and a file already waiting in the queue is not
// queued twice.
import { currentIntl, t } from '../../i18n/language.ts';
import { selectionMessages } from './messages.ts';

export const MAX_FILE_MB = 5120;
export const MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024;
/** More entries than this make the page itself slow; the uploader can send the rest afterwards. */
export const MAX_QUEUED_FILES = 20_000;
export const IGNORED_FILE_NAMES: ReadonlySet<string> = new Set(['.DS_Store', 'Thumbs.db']);

/** A file with the directory it was found in ('.' for the root). */
export interface CandidateFile {
  file: File;
  relativePath: string;
}

export interface QueuedIdentity {
  name: string;
  relativePath: string;
  size: number;
  lastModified: number;
}

export interface RejectedFile {
  name: string;
  reasons: string[];
}

export interface Selection {
  accepted: CandidateFile[];
  tooLarge: CandidateFile[];
  rejected: RejectedFile[];
}

/** A size in MB with two decimals, in the page's language (5120.00, German 5120,00). */
export function megabytes(bytes: number): string {
  return currentIntl().formatNumber(bytes / (1024 * 1024), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });
}

function identity(name: string, relativePath: string, size: number, lastModified: number): string {
  return `${relativePath}\u0000${name}\u0000${size}\u0000${lastModified}`;
}

export function isIgnoredFile(name: string): boolean {
  return IGNORED_FILE_NAMES.has(name);
}

export function selectFiles(candidates: readonly CandidateFile[], queued: readonly QueuedIdentity[]): Selection {
  const known = new Set(queued.map((q) => identity(q.name, q.relativePath, q.size, q.lastModified)));
  const selection: Selection = { accepted: [], tooLarge: [], rejected: [] };
  let room = MAX_QUEUED_FILES - queued.length;
  for (const candidate of candidates) {
    const { file, relativePath } = candidate;
    if (isIgnoredFile(file.name)) continue;
    if (file.size > MAX_FILE_BYTES) {
      selection.tooLarge.push(candidate);
      continue;
    }
    const key = identity(file.name, relativePath, file.size, file.lastModified);
    if (known.has(key)) continue;
    if (room <= 0) {
      selection.rejected.push({ name: file.name, reasons: [t(selectionMessages.tooManyFiles)] });
      continue;
    }
    known.add(key);
    room--;
    selection.accepted.push(candidate);
  }
  return selection;
}

const LISTED_NAMES = 10;

function listed<T>(items: readonly T[], show: (item: T) => string, separator: string): string {
  const shown = items.slice(0, LISTED_NAMES).map(show).join(separator);
  return items.length > LISTED_NAMES ? `${shown}${separator}${t(selectionMessages.andMore, { count: items.length - LISTED_NAMES })}` : shown;
}

/** 'Files too large (max 5120 MB): name (size MB)', names comma-separated. */
export function tooLargeMessage(files: readonly CandidateFile[]): string {
  return t(selectionMessages.tooLarge, { max: MAX_FILE_MB, files: listed(files, ({ file }) => `${file.name} (${megabytes(file.size)} MB)`, ', ') });
}

/** 'Other rejected files: name: reasons'. */
export function otherRejectedMessage(files: readonly RejectedFile[]): string {
  return t(selectionMessages.otherRejected, { files: listed(files, (f) => `${f.name}: ${f.reasons.join(', ')}`, '; ') });
}

/** The directory part of a browser-relative path ('Top/sub/a.txt' -> 'Top/sub'; 'a.txt' -> '.'). */
export function directoryOf(relativeFilePath: string): string {
  const parts = relativeFilePath.split('/').filter((part) => part !== '' && part !== '.');
  parts.pop();
  return parts.length === 0 ? '.' : parts.join('/');
}
