import { describe, expect, it } from 'vitest';
import { asciiFallbackName, attachmentDisposition } from './content-disposition.ts';

describe('attachmentDisposition', () => {
  it('keeps a plain name as it is', () => {
    expect(attachmentDisposition('report-2024_v1.pdf')).toBe(`attachment; filename="report-2024_v1.pdf"; filename*=UTF-8''report-2024_v1.pdf`);
  });

  it('percent-encodes the UTF-8 name and gives an ASCII stand-in', () => {
    const header = attachmentDisposition('Übersicht (final) 100%.txt');
    expect(header).toBe(`attachment; filename="Ubersicht (final) 100%.txt"; filename*=UTF-8''%C3%9Cbersicht%20%28final%29%20100%25.txt`);
    expect(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)![1]!)).toBe('Übersicht (final) 100%.txt');
  });

  it('cannot be broken out of: quotes, backslashes and control characters are replaced', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="a_b_c__Set-Cookie: x.txt";')).toBe(true);
  });

  it('falls back to "download" when nothing printable is left', () => {
    expect(asciiFallbackName('報告')).toBe('__');
    expect(asciiFallbackName('   ')).toBe('download');
  });
});
