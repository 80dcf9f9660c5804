import { describe, expect, it } from 'vitest';
import { buildFileTree, storedPath } from './fileTree.ts';
import { fileRecord } from './testing/fileRecords.ts';

describe('storedPath', () => {
  it('drops the first segment, keeps the middle ones as the directory and the last as the name', () => {
    expect(storedPath('17/docs/2024/report.pdf')).toEqual({ directories: ['docs', '2024'], name: 'report.pdf' });
    expect(storedPath('17/report.pdf')).toEqual({ directories: [], name: 'report.pdf' });
    expect(storedPath('report.pdf')).toEqual({ directories: [], name: 'report.pdf' });
  });
});

describe('buildFileTree', () => {
  it('nests directories by path and knows every descendant of each directory', () => {
    const a = fileRecord('1/top.txt');
    const b = fileRecord('2/docs/a.txt');
    const c = fileRecord('3/docs/2024/b.txt');
    const d = fileRecord('4/photos/c.jpg');
    const e = fileRecord('5/docs/2024/d.txt');
    const root = buildFileTree([a, b, c, d, e]);

    expect(root.files.map((f) => f.name)).toEqual(['top.txt']);
    expect(root.directories.map((dir) => dir.path)).toEqual(['docs', 'photos']);
    const docs = root.directories[0]!;
    expect(docs.files.map((f) => f.file.id)).toEqual([b.id]);
    expect(docs.directories.map((dir) => [dir.name, dir.path])).toEqual([['2024', 'docs/2024']]);
    expect(docs.directories[0]!.files.map((f) => [f.name, f.directory])).toEqual([
      ['b.txt', 'docs/2024'],
      ['d.txt', 'docs/2024'],
    ]);
    expect(docs.descendants.map((f) => f.id)).toEqual([b.id, c.id, e.id]);
    expect(root.descendants).toHaveLength(5);
  });

  it('merges the same directory from different uploads (the first segment differs)', () => {
    const root = buildFileTree([fileRecord('10/Project/x.txt'), fileRecord('11/Project/y.txt')]);
    expect(root.directories).toHaveLength(1);
    expect(root.directories[0]!.files.map((f) => f.name)).toEqual(['x.txt', 'y.txt']);
  });

  it('marks later files with a repeated content hash as duplicates, not the first upload', () => {
    const hash = 'ab'.repeat(32);
    const first = fileRecord('1/a.txt', { file_hash: hash, upload_time: '2030-01-01T00:00:00Z' });
    const later = fileRecord('2/dir/a-copy.txt', { file_hash: hash.toUpperCase(), upload_time: '2030-01-02T00:00:00Z' });
    const other = fileRecord('3/b.txt');
    const root = buildFileTree([later, first, other]);
    expect(root.files.map((f) => [f.name, f.duplicate])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
    ]);
    expect(root.directories[0]!.files[0]!.duplicate).toBe(true);
  });
});
