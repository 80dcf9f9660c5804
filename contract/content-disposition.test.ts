import { describe, expect, it } from 'vitest';
import { asciiFallbackName, attachmentDisposition, safeAttachmentDisposition, safeFileName } from './content-disposition.ts';

/** What a download manager reads from filename* (RFC 8187: charset''percent-encoded). */
function decodedFilenameStar(header: string): string {
  const match = /filename\*=UTF-8''([^;]+)$/.exec(header);
  if (!match) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(match[1]!);
}

describe('attachmentDisposition (server: ciphertext and export responses)', () => {
  it('keeps a plain name as it is in both parameters', () => {
    expect(attachmentDisposition('report-2024_v1.pdf')).toBe(`attachment; filename="report-2024_v1.pdf"; filename*=UTF-8''report-2024_v1.pdf`);
  });

  it('percent-encodes the UTF-8 name and gives an ASCII stand-in without "%"', () => {
    const header = attachmentDisposition('Übersicht (final) 100%.txt');
    expect(header).toBe(`attachment; filename="Ubersicht (final) 100_.txt"; filename*=UTF-8''%C3%9Cbersicht%20%28final%29%20100%25.txt`);
    expect(decodedFilenameStar(header)).toBe('Übersicht (final) 100%.txt');
  });

  it('cannot be broken out of: quotes, backslashes and control characters are replaced', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="a_b_c__Set-Cookie: x.txt";')).toBe(true);
  });

  it('never lets a name escape the quoted ASCII parameter', () => {
    const header = attachmentDisposition('a"; filename="evil.exe');
    expect(header.match(/"/g)).toHaveLength(2);
    expect(decodedFilenameStar(header)).toBe('a"; filename="evil.exe');
  });

  it('leaves nothing a client could percent-decode into a path in the stand-in', () => {
    expect(asciiFallbackName('..%2F..%2Fetc')).toBe('.._2F.._2Fetc');
  });

  it('falls back to "download" when nothing printable is left', () => {
    expect(asciiFallbackName('報告')).toBe('__');
    expect(asciiFallbackName('   ')).toBe('download');
  });
});

describe('safeAttachmentDisposition (service worker: decrypted downloads)', () => {
  it('keeps a plain ASCII name as is in both parameters', () => {
    expect(safeAttachmentDisposition('report-2024.pdf')).toBe(`attachment; filename="report-2024.pdf"; filename*=UTF-8''report-2024.pdf`);
  });

  it('carries a Unicode name exactly in filename* and an ASCII stand-in in filename', () => {
    const header = safeAttachmentDisposition('Grüße "Ä" 東京 (1).txt');
    expect(decodedFilenameStar(header)).toBe('Grüße "Ä" 東京 (1).txt');
    expect(header).toContain('filename="Gru_e _A_ __ (1).txt"');
    expect(header.split("UTF-8''")[1]).not.toMatch(/[ "'()*]/);
  });

  it('names the file by its safe name: separators replaced, control characters dropped', () => {
    expect(safeAttachmentDisposition('dir/a\u0000b.txt')).toBe(`attachment; filename="dir_ab.txt"; filename*=UTF-8''dir_ab.txt`);
  });
});

describe('safeFileName', () => {
  it('replaces path separators, drops control characters and never returns an empty name', () => {
    expect(safeFileName('dir/sub\\a.txt')).toBe('dir_sub_a.txt');
    expect(safeFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(safeFileName('  ')).toBe('download');
    expect(safeFileName('..')).toBe('download');
  });

  it('composes decomposed characters (NFC), so one name is saved one way', () => {
    expect(safeFileName('Gru\u0308\u00dfe.txt')).toBe('Grüße.txt');
  });
});
