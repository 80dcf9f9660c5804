import { describe, expect, it } from 'vitest';
import { candidateNames, numberedName, sanitizeName, treePath } from './treePaths.ts';

describe('treePath: a relative path as directories and a name', () => {
  it('splits on / and \\, dropping empty and "." segments', () => {
    expect(treePath('docs/2024/data.bin')).toEqual({ directories: ['docs', '2024'], name: 'data.bin' });
    expect(treePath('readme.txt')).toEqual({ directories: [], name: 'readme.txt' });
    expect(treePath('/a//./b\\c.txt')).toEqual({ directories: ['a', 'b'], name: 'c.txt' });
  });

  it('never climbs out of the picked folder', () => {
    expect(treePath('../../etc/passwd')).toEqual({ directories: ['_', '_', 'etc'], name: 'passwd' });
    expect(treePath('')).toEqual({ directories: [], name: '_' });
  });
});

describe('sanitizeName', () => {
  it('keeps ordinary and Unicode names as they are (NFC)', () => {
    expect(sanitizeName('Grüße & Notizen.txt')).toBe('Grüße & Notizen.txt');
    expect(sanitizeName('Gru\u0308ße.txt')).toBe('Grüße.txt');
    expect(sanitizeName('.env')).toBe('.env');
  });

  it('replaces characters desktop systems forbid, and control characters', () => {
    expect(sanitizeName('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
    expect(sanitizeName('tab\there\u0000.txt')).toBe('tab_here_.txt');
  });

  it('drops trailing dots and spaces, and turns empty, "." and ".." into "_"', () => {
    expect(sanitizeName('notes. . ')).toBe('notes');
    expect(sanitizeName('  lead')).toBe('lead');
    expect(['', '.', '..', '...'].map(sanitizeName)).toEqual(['_', '_', '_', '_']);
  });

  it("prefixes Windows device names and defuses shortcut extensions Chromium refuses", () => {
    expect(sanitizeName('CON')).toBe('_CON');
    expect(sanitizeName('nul.txt')).toBe('_nul.txt');
    expect(sanitizeName('com1.log')).toBe('_com1.log');
    expect(sanitizeName('console.log')).toBe('console.log');
    expect(sanitizeName('Start.lnk')).toBe('Start.lnk_');
    expect(sanitizeName('site.URL')).toBe('site.URL_');
  });

  it('shortens very long names but keeps the extension', () => {
    const name = sanitizeName(`${'x'.repeat(400)}.pdf`);
    expect(name.length).toBe(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('taken names', () => {
  it("number before the extension, like the browser's downloads", () => {
    expect(numberedName('report.pdf', 2)).toBe('report (2).pdf');
    expect(numberedName('archive.tar.gz', 3)).toBe('archive.tar (3).gz');
    expect(numberedName('.env', 2)).toBe('.env (2)');
    expect(numberedName('README', 4)).toBe('README (4)');
  });

  it('are tried in order, starting with the name itself', () => {
    expect([...candidateNames('a.txt', 4)]).toEqual(['a.txt', 'a (2).txt', 'a (3).txt', 'a (4).txt']);
  });
});
