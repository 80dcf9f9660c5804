/**
 * The folder's files as a tree of directories (spec section 3, File record): stored_filename is
 * '<upload id>/<directories>/<name>'; its first segment is dropped and the middle segments are the
 * directory path. Directory nodes know all their descendant files, which selection, the
 * per-directory Download and the 'Empty' state need.
 */
import type { FileRecord } from '../../api/filesApi.ts';
import { duplicateFileIds } from './duplicates.ts';

export interface FileNode {
  readonly kind: 'file';
  readonly file: FileRecord;
  readonly name: string;
  /** Directory path inside the folder ('' at the root), e.g. 'docs/2024'. */
  readonly directory: string;
  /** Its content hash appeared in an earlier upload: shown as '(Dup)'. */
  readonly duplicate: boolean;
}

export interface DirectoryNode {
  readonly kind: 'directory';
  readonly name: string;
  /** '' for the root, else e.g. 'docs/2024'. */
  readonly path: string;
  readonly directories: DirectoryNode[];
  readonly files: FileNode[];
  /** Every file below this directory, at any depth. */
  readonly descendants: FileRecord[];
}

export interface StoredPath {
  readonly directories: string[];
  readonly name: string;
}

/** Splits stored_filename: first segment dropped, middle segments the directories, last the name. */
export function storedPath(storedFilename: string): StoredPath {
  const segments = storedFilename.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length <= 1) return { directories: [], name: segments[0] ?? storedFilename };
  return { directories: segments.slice(1, -1), name: segments[segments.length - 1]! };
}

interface MutableDirectory {
  kind: 'directory';
  name: string;
  path: string;
  directories: MutableDirectory[];
  files: FileNode[];
  descendants: FileRecord[];
  byName: Map<string, MutableDirectory>;
}

function directory(name: string, path: string): MutableDirectory {
  return { kind: 'directory', name, path, directories: [], files: [], descendants: [], byName: new Map() };
}

function freeze(node: MutableDirectory): DirectoryNode {
  return { kind: 'directory', name: node.name, path: node.path, directories: node.directories.map(freeze), files: node.files, descendants: node.descendants };
}

export function buildFileTree(files: readonly FileRecord[]): DirectoryNode {
  const duplicates = duplicateFileIds(files);
  const root = directory('', '');
  for (const file of files) {
    const { directories, name } = storedPath(file.stored_filename);
    root.descendants.push(file);
    let current = root;
    for (const segment of directories) {
      let next = current.byName.get(segment);
      if (!next) {
        next = directory(segment, current.path === '' ? segment : `${current.path}/${segment}`);
        current.byName.set(segment, next);
        current.directories.push(next);
      }
      next.descendants.push(file);
      current = next;
    }
    current.files.push({ kind: 'file', file, name: file.original_filename || name, directory: current.path, duplicate: duplicates.has(file.id) });
  }
  return freeze(root);
}
