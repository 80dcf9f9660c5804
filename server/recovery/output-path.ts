// Where a manifest entry may be written. The manifest comes from an export that may have been
// altered, so its relative_path and name are untrusted: every segment must be a plain name (no
// "..", ".", separators, NUL, drive letters), and directories are created one segment at a time,
// refusing any that already exists as a symbolic link, so nothing is written outside the output
// directory even when a link to elsewhere was planted inside it.
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, FileRecoveryError } from './errors.ts';

const DRIVE_LETTER = /^[A-Za-z]:/;

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'an empty segment (absolute path or "//")';
  if (segment === '.' || segment === '..') return `"${segment}"`;
  if (segment.includes('\0')) return 'a NUL character';
  if (segment.includes('\\') || segment.includes('/')) return 'a path separator';
  if (DRIVE_LETTER.test(segment)) return 'a drive letter';
  return undefined;
}

/** The directory segments of a manifest relative_path ("." is the top) and the file name, checked. */
export function safeSegments(relativePath: string, name: string): { directories: string[]; name: string } {
  const directories = relativePath === '.' ? [] : relativePath.split('/');
  for (const segment of directories) {
    const problem = segmentProblem(segment);
    if (problem) throw new FileRecoveryError('UNSAFE_PATH', `refused: relative_path contains ${problem}`);
  }
  const problem = segmentProblem(name);
  if (problem) throw new FileRecoveryError('UNSAFE_PATH', `refused: name contains ${problem}`);
  return { directories, name };
}

/** Absolute target path; also checks the joined result stays inside the output directory. */
export function targetPath(outputDir: string, directories: string[], name: string): string {
  const root = path.resolve(outputDir);
  const target = path.resolve(root, ...directories, name);
  if (!target.startsWith(root + path.sep)) throw new FileRecoveryError('UNSAFE_PATH', 'refused: path leaves the output directory');
  return target;
}

/** Creates outputDir/directories... one by one; a symbolic link or a file on the way is refused. */
export async function ensureDirectories(outputDir: string, directories: string[]): Promise<string> {
  let current = path.resolve(outputDir);
  for (const segment of directories) {
    current = path.join(current, segment);
    let stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
      await mkdir(current);
      continue;
    }
    if (stats.isSymbolicLink()) throw new FileRecoveryError('UNSAFE_PATH', `refused: "${segment}" is a symbolic link in the output directory`);
    if (!stats.isDirectory()) throw new FileRecoveryError('OUTPUT_FAILED', `cannot create directory: "${segment}" exists and is not a directory`);
  }
  return current;
}

/** True when something (file, directory, link) already has this name. */
export async function pathExists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}
