import { describe, expect, it } from 'vitest';
import { directoryOf, MAX_FILE_BYTES, otherRejectedMessage, selectFiles, tooLargeMessage, type CandidateFile } from './fileSelection.ts';

function candidate(name: string, size = 10, relativePath = '.', lastModified = 1): CandidateFile {
  const file = new File([], name, { lastModified });
  Object.defineProperty(file, 'size', { value: size });
  return { file, relativePath };
}

describe('selectFiles', () => {
  it('skips .DS_Store and Thumbs.db and keeps the rest with their paths', () => {
    const picked = [candidate('.DS_Store'), candidate('a.txt', 1, 'Top/sub'), candidate('Thumbs.db', 5, 'Top'), candidate('b.txt')];
    const selection = selectFiles(picked, []);
    expect(selection.accepted.map((c) => [c.relativePath, c.file.name])).toEqual([
      ['Top/sub', 'a.txt'],
      ['.', 'b.txt'],
    ]);
    expect(selection.rejected).toEqual([]);
  });

  it('rejects files over 5120 MB and accepts exactly 5120 MB', () => {
    const selection = selectFiles([candidate('big.iso', MAX_FILE_BYTES + 1), candidate('edge.bin', MAX_FILE_BYTES)], []);
    expect(selection.tooLarge.map((c) => c.file.name)).toEqual(['big.iso']);
    expect(selection.accepted.map((c) => c.file.name)).toEqual(['edge.bin']);
    expect(tooLargeMessage(selection.tooLarge)).toBe('Files too large (max 5120 MB): big.iso (5120.00 MB)');
  });

  it('does not queue a file twice', () => {
    const selection = selectFiles([candidate('a.txt'), candidate('a.txt'), candidate('a.txt', 10, 'other')], [
      { name: 'a.txt', relativePath: '.', size: 10, lastModified: 1 },
    ]);
    expect(selection.accepted.map((c) => c.relativePath)).toEqual(['other']);
  });

  it('rejects files beyond the queue capacity as too many', () => {
    const queued = Array.from({ length: 19_999 }, (_, i) => ({ name: `q${i}`, relativePath: '.', size: 1, lastModified: 1 }));
    const selection = selectFiles([candidate('last.txt'), candidate('over.txt')], queued);
    expect(selection.accepted.map((c) => c.file.name)).toEqual(['last.txt']);
    expect(otherRejectedMessage(selection.rejected)).toBe('Other rejected files: over.txt: Too many files');
  });
});

describe('messages', () => {
  it('list at most ten names', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, reasons: ['Too many files'] }));
    expect(otherRejectedMessage(many)).toMatch(/f9: Too many files; and 2 more$/);
  });
});

describe('directoryOf', () => {
  it('keeps the directories of a relative path', () => {
    expect(directoryOf('Top/sub/a.txt')).toBe('Top/sub');
    expect(directoryOf('/Top/a.txt')).toBe('Top');
    expect(directoryOf('a.txt')).toBe('.');
  });
});
