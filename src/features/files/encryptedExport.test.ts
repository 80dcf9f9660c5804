import { describe, expect, it } from 'vitest';
import { exportChoice, folderExportUrl, MAX_EXPORT_IDS } from './encryptedExport.ts';
import { fileRecord } from './testing/fileRecords.ts';

const files = [fileRecord('1/a.txt', { id: 4 }), fileRecord('2/docs/b.txt', { id: 9 }), fileRecord('3/c.txt', { id: 12 })];

describe('encrypted export', () => {
  it('names the folder export route, with the ids comma-separated when some are chosen', () => {
    expect(folderExportUrl(7, null)).toBe('/api/folders/7/export');
    expect(folderExportUrl(7, [9, 12])).toBe('/api/folders/7/export?file_ids=9,12');
  });

  it('exports some files by id, all of them without ids, none not at all', () => {
    expect(exportChoice(7, files, [files[0]!, files[2]!])).toEqual({ kind: 'export', url: '/api/folders/7/export?file_ids=4,12', count: 2 });
    expect(exportChoice(7, files, files)).toEqual({ kind: 'export', url: '/api/folders/7/export', count: 3 });
    expect(exportChoice(7, files, [])).toEqual({ kind: 'nothing' });
  });

  it(`refuses a selection of more than ${MAX_EXPORT_IDS} files that is not the whole folder`, () => {
    const many = Array.from({ length: MAX_EXPORT_IDS + 2 }, (_, i) => fileRecord(`${i}/f${i}`, { id: i + 1 }));
    expect(exportChoice(7, many, many.slice(1))).toEqual({ kind: 'too-many', count: MAX_EXPORT_IDS + 1 });
    expect(exportChoice(7, many, many.slice(2)).kind).toBe('export');
    expect(exportChoice(7, many, many)).toEqual({ kind: 'export', url: '/api/folders/7/export', count: MAX_EXPORT_IDS + 2 });
  });
});
