// Names of uploaded files, made safe to store and show. The uploader chooses them, so they may hold
// anything: path separators, control characters, "..". A name is never used as a path on our disk
// (blobs are stored under random keys); these rules keep the admin's file tree and downloads sane.
//
// stored_filename (spec section 3): "<upload uuid>/<directories>/<name>". The reader drops the
// first segment; the middle segments are the directory path inside the uploaded tree; the last is
// the name. A file at the root has no middle segments: "<uuid>/<name>".
import { CONTROL_CHARACTERS } from '../control-characters.ts';

const SEPARATORS = /[/\\]/g;
export const MAX_NAME_LENGTH = 1024;
export const MAX_PATH_LENGTH = 4096;

export type NameCheck = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Browsers encode a double quote in a multipart filename as %22 (and CR/LF as %0D/%0A); the spec's
 * result-matching rule turns %22 back into a quote, so the stored name does the same.
 */
export function decodeMultipartFilename(raw: string): string {
  return raw.replace(/%22/g, '"');
}

/** The file's name: NFC, no control characters, separators replaced by "_"; empty, "." and ".." refused. */
export function sanitizeFileName(raw: string): NameCheck {
  const name = raw.normalize('NFC').replace(CONTROL_CHARACTERS, '').replace(SEPARATORS, '_');
  if (name.trim() === '' || name === '.' || name === '..') return { ok: false, reason: 'Invalid file name' };
  if (name.length > MAX_NAME_LENGTH) return { ok: false, reason: 'File name too long' };
  return { ok: true, value: name };
}

/**
 * The directory of the file inside the uploaded tree: "/"-separated segments, or "." for the root.
 * Either separator is accepted; empty and "." segments are dropped; ".." is refused (a tree that
 * climbs out of itself is not a tree a browser sends).
 */
export function sanitizeRelativePath(raw: string | undefined): NameCheck {
  if (raw === undefined) return { ok: true, value: '.' };
  const segments: string[] = [];
  for (const part of raw.normalize('NFC').split(SEPARATORS)) {
    const segment = part.replace(CONTROL_CHARACTERS, '');
    if (segment === '..') return { ok: false, reason: 'Invalid relative path' };
    if (segment.trim() === '' || segment === '.') continue;
    segments.push(segment);
  }
  const value = segments.length === 0 ? '.' : segments.join('/');
  if (value.length > MAX_PATH_LENGTH) return { ok: false, reason: 'Relative path too long' };
  return { ok: true, value };
}

export function storedFilename(uploadId: string, relativePath: string, name: string): string {
  return relativePath === '.' ? `${uploadId}/${name}` : `${uploadId}/${relativePath}/${name}`;
}
