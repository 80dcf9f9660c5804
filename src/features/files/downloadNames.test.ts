import { describe, expect, it } from 'vitest';
import { directoryZipName, folderZipName, zipEntryNames } from './downloadNames.ts';
import { fileRecord } from './testing/fileRecords.ts';

describe('admin ZIP names', () => {
  it('are the folder title sanitised to letters, digits, underscore and hyphen plus a suffix', () => {
    expect(folderZipName('Client onboarding (2025) – Ä')).toBe('Client_onboarding__2025_____' + '_files.zip');
    expect(folderZipName('Tax-docs_2025')).toBe('Tax-docs_2025_files.zip');
    expect(folderZipName('')).toBe('folder_files.zip');
    expect(directoryZipName('Tax docs', 'Project/2024 Q1')).toBe('Tax_docs_2024_Q1.zip');
  });
});

describe('zipEntryNames', () => {
  it('keeps directory paths and makes repeated paths unique before the extension', () => {
    const files = [fileRecord('1/docs/a.txt'), fileRecord('2/docs/a.txt'), fileRecord('3/docs/A.TXT'), fileRecord('4/README'), fileRecord('5/README')];
    expect([...zipEntryNames(files).values()]).toEqual(['docs/a.txt', 'docs/a (2).txt', 'docs/A (3).TXT', 'README', 'README (2)']);
  });

  it('never lets a name from the server climb out of the archive or carry control characters', () => {
    const files = [
      fileRecord('1/../../etc/passwd'),
      fileRecord('2/docs/x', { original_filename: '/abs\\..\\evil.txt' }),
      fileRecord('3/tab\there/bell\u0007.txt'),
    ];
    expect([...zipEntryNames(files).values()]).toEqual(['_/_/etc/passwd', 'docs/abs/_/evil.txt', 'tab_here/bell_.txt']);
  });
});
