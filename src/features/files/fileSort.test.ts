import { describe, expect, it } from 'vitest';
import { buildFileTree } from './fileTree.ts';
import { DEFAULT_FILE_SORT, nextFileSort, sortDirectories, sortFiles } from './fileSort.ts';
import { fileRecord } from './testing/fileRecords.ts';

const files = [
  fileRecord('1/file10.txt', { upload_time: '2030-01-03T00:00:00Z', last_downloaded_admin: '2030-02-01T00:00:00Z' }),
  fileRecord('2/File2.txt', { upload_time: '2030-01-01T00:00:00Z', last_downloaded_admin: null }),
  fileRecord('3/apple.txt', { upload_time: '2030-01-02T00:00:00Z', last_downloaded_admin: '2030-01-15T00:00:00Z' }),
  fileRecord('4/zeta/x.txt'),
  fileRecord('5/Alpha/y.txt'),
];
const root = buildFileTree(files);
const names = (sort: Parameters<typeof sortFiles>[1]) => sortFiles(root.files, sort).map((f) => f.name);

describe('sorting', () => {
  it('clicking the sorted column toggles the direction, another column starts ascending', () => {
    expect(DEFAULT_FILE_SORT).toEqual({ key: 'name', order: 'asc' });
    expect(nextFileSort(DEFAULT_FILE_SORT, 'name')).toEqual({ key: 'name', order: 'desc' });
    expect(nextFileSort({ key: 'name', order: 'desc' }, 'name')).toEqual({ key: 'name', order: 'asc' });
    expect(nextFileSort({ key: 'name', order: 'desc' }, 'upload_time')).toEqual({ key: 'upload_time', order: 'asc' });
  });

  it('sorts names naturally and case-insensitively', () => {
    expect(names({ key: 'name', order: 'asc' })).toEqual(['apple.txt', 'File2.txt', 'file10.txt']);
    expect(names({ key: 'name', order: 'desc' })).toEqual(['file10.txt', 'File2.txt', 'apple.txt']);
  });

  it('sorts by upload time and by last download, never-downloaded counting as oldest', () => {
    expect(names({ key: 'upload_time', order: 'asc' })).toEqual(['File2.txt', 'apple.txt', 'file10.txt']);
    expect(names({ key: 'upload_time', order: 'desc' })).toEqual(['file10.txt', 'apple.txt', 'File2.txt']);
    expect(names({ key: 'last_downloaded_admin', order: 'asc' })).toEqual(['File2.txt', 'apple.txt', 'file10.txt']);
    expect(names({ key: 'last_downloaded_admin', order: 'desc' })).toEqual(['file10.txt', 'apple.txt', 'File2.txt']);
  });

  it('orders directories by name, reversed only when names are sorted descending', () => {
    const dirs = (sort: Parameters<typeof sortDirectories>[1]) => sortDirectories(root.directories, sort).map((d) => d.name);
    expect(dirs({ key: 'name', order: 'asc' })).toEqual(['Alpha', 'zeta']);
    expect(dirs({ key: 'name', order: 'desc' })).toEqual(['zeta', 'Alpha']);
    expect(dirs({ key: 'upload_time', order: 'desc' })).toEqual(['Alpha', 'zeta']);
  });
});
