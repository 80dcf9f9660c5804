import { describe, expect, it } from 'vitest';
import { contentDisposition, safeFileName } from './contentDisposition.ts';

/** What a download manager reads from filename* (RFC 5987: charset''percent-encoded). */
function decodedFilenameStar(header: string): string {
  const match = /filename\*=UTF-8''([^;]+)$/.exec(header);
  if (!match) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(match[1]!);
}

describe('contentDisposition', () => {
  it('keeps a plain ASCII name as is in both parameters', () => {
    expect(contentDisposition('report-2024.pdf')).toBe(`attachment; filename="report-2024.pdf"; filename*=UTF-8''report-2024.pdf`);
  });

  it('carries a Unicode name exactly in filename* and an ASCII stand-in in filename', () => {
    const header = contentDisposition('Grüße "Ä" 東京 (1).txt');
    expect(decodedFilenameStar(header)).toBe('Grüße "Ä" 東京 (1).txt');
    expect(header).toContain('filename="Gru_e _A_ __ (1).txt"');
    expect(header.split("UTF-8''")[1]).not.toMatch(/[ "'()*]/);
  });

  it('never lets a name escape the quoted ASCII parameter', () => {
    const header = contentDisposition('a"; filename="evil.exe');
    expect(header.match(/"/g)).toHaveLength(2);
    expect(decodedFilenameStar(header)).toBe('a"; filename="evil.exe');
  });
});

describe('safeFileName', () => {
  it('replaces path separators, drops control characters and never returns an empty name', () => {
    expect(safeFileName('dir/sub\\a.txt')).toBe('dir_sub_a.txt');
    expect(safeFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(safeFileName('  ')).toBe('download');
    expect(safeFileName('..')).toBe('download');
  });
});
