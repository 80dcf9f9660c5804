// The files an upload sends, from the paths on the command line: a file goes to the top of the
// folder; a directory goes with its own name as the top directory and everything below it (as the
// browser's "Select Folder" sends it). Nothing is read yet: sizes and identities only. A path that
// cannot be read stops the run before anything is sent (exit status 2); directory loops through
// symbolic links are followed once.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliUsageError } from '../shared/errors.ts';

export interface SourceFile {
  absolutePath: string;
  /** The directory inside the upload, '/'-separated, '.' for the top. */
  relativeDir: string;
  name: string;
  size: number;
  /** What makes this file this file for resuming: a change to any of these is another file. */
  identity: { path: string; size: number; mtimeMs: number; ino: number };
}

export interface SourceListing {
  files: SourceFile[];
  /** Entries that are neither files nor directories (sockets, devices, broken links): skipped. */
  skipped: string[];
}

function unreadable(target: string, error: unknown): CliUsageError {
  const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
  return new CliUsageError(`Cannot read "${target}" (${code}).`);
}

async function describe(absolutePath: string, relativeDir: string): Promise<SourceFile> {
  const stats = await stat(absolutePath);
  return {
    absolutePath,
    relativeDir,
    name: path.basename(absolutePath),
    size: stats.size,
    identity: { path: absolutePath, size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino },
  };
}

async function walk(directory: string, relativeDir: string, seen: Set<string>, listing: SourceListing): Promise<void> {
  const real = await realpath(directory);
  if (seen.has(real)) return;
  seen.add(real);
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    throw unreadable(directory, error);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = path.join(directory, entry.name);
    let stats;
    try {
      stats = await stat(child);
    } catch {
      listing.skipped.push(child);
      continue;
    }
    if (stats.isDirectory()) await walk(child, `${relativeDir}/${entry.name}`, seen, listing);
    else if (stats.isFile()) listing.files.push(await describe(child, relativeDir));
    else listing.skipped.push(child);
  }
}

export async function listSourceFiles(paths: readonly string[]): Promise<SourceListing> {
  const listing: SourceListing = { files: [], skipped: [] };
  const seen = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(given);
    let stats;
    try {
      await lstat(absolute);
      stats = await stat(absolute);
    } catch (error) {
      throw unreadable(given, error);
    }
    if (stats.isDirectory()) await walk(absolute, path.basename(absolute) || '.', seen, listing);
    else if (stats.isFile()) listing.files.push(await describe(absolute, '.'));
    else throw new CliUsageError(`"${given}" is neither a file nor a directory.`);
  }
  const shown = new Map<string, string>();
  for (const file of listing.files) {
    const key = `${file.relativeDir}/${file.name}`.normalize('NFC').toLowerCase();
    const earlier = shown.get(key);
    if (earlier !== undefined && earlier !== file.absolutePath) {
      throw new CliUsageError(`"${file.absolutePath}" and "${earlier}" would both be ${file.relativeDir}/${file.name} in the folder.`);
    }
    shown.set(key, file.absolutePath);
  }
  return listing;
}

/** The path a report names a file by: its place in the upload. */
export function uploadPathOf(file: { relativeDir: string; name: string }): string {
  return file.relativeDir === '.' ? file.name : `${file.relativeDir}/${file.name}`;
}
