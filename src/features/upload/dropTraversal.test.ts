import { describe, expect, it } from 'vitest';
import { collectDroppedFiles } from './dropTraversal.ts';

// A minimal FileSystemEntry tree, as Chromium hands it to a drop handler.
function fileEntry(fullPath: string): FileSystemFileEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (resolve: (file: File) => void) => resolve(new File(['x'], name)),
  } as unknown as FileSystemFileEntry;
}

function directoryEntry(fullPath: string, children: FileSystemEntry[], portion = 2): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
    fullPath,
    createReader: () => {
      let given = 0;
      return {
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          const next = children.slice(given, given + portion);
          given += next.length;
          resolve(next);
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

describe('collectDroppedFiles', () => {
  it('walks dropped folders, keeps each file\'s directory and skips system files', async () => {
    const tree = directoryEntry('/Project', [
      fileEntry('/Project/a.txt'),
      fileEntry('/Project/.DS_Store'),
      directoryEntry('/Project/2025', [fileEntry('/Project/2025/Grüße "x".txt'), fileEntry('/Project/2025/Thumbs.db')]),
      fileEntry('/Project/b.txt'),
    ]);
    const files = await collectDroppedFiles({ entries: [tree, fileEntry('/loose.pdf')], files: [] });
    expect(files.map((f) => [f.relativePath, f.file.name])).toEqual([
      ['Project', 'a.txt'],
      ['Project/2025', 'Grüße "x".txt'],
      ['Project', 'b.txt'],
      ['.', 'loose.pdf'],
    ]);
  });

  it('takes plain files at the root when the browser gives no entries', async () => {
    const files = await collectDroppedFiles({ entries: [], files: [new File(['1'], 'one.txt')] });
    expect(files.map((f) => [f.relativePath, f.file.name])).toEqual([['.', 'one.txt']]);
  });
});
