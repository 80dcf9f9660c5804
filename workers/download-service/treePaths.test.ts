import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateNames, entryPath, numberedName, sanitizeName, treePath, uniqueEntryPaths } from './treePaths.ts';

/** Names built from the pieces these rules are about, mixed with any text at all. */
const piece = fc.oneof(
  fc.constantFrom('.', '..', ' ', '/', '\\', ':', '<', '*', '\u0000', '\u001f', '\u007f', '\u0085', '\u00a0', '\ufeff'),
  fc.constantFrom('con', 'NUL', 'com1', 'lpt9', '.lnk', '.URL', '.scf', '.local', '.pdf', '.tar.gz', ' (2)', '_'),
  fc.constantFrom('e\u0301', 'é', '😀', '\ud83d', '\ude00', 'ß', 'x'.repeat(60), '.'.repeat(40), ' '.repeat(30), `.${'e'.repeat(25)}`),
  // Long runs, so that names often pass the length limit and get shortened somewhere awkward.
  fc.constantFrom('x'.repeat(190), 'y'.repeat(150), '😀'.repeat(80), '. '.repeat(60)),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: 'binary-ascii', maxLength: 8 }),
);
const anyName = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
const anyPath = fc
  .array(fc.tuple(fc.constantFrom('/', '\\', '//'), fc.oneof(anyName, fc.constantFrom('..', '.', '', 'C:'))), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.map(([separator, part], index) => (index === 0 ? part : separator + part)).join(''));

/** What a path in an archive must never hold (docs/download.md, "ZIPs"). */
function expectSafeInArchive(path: string): void {
  expect(path).not.toMatch(/^\/|^[A-Za-z]:|\\/);
  expect(path).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(path).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  for (const segment of path.split('/')) expect(segment).not.toMatch(/^[. ]*$/);
}

/** What a safe name is (docs/download.md, "Saving a folder"). */
function expectSafe(name: string): void {
  expect(name.length).toBeGreaterThan(0);
  expect(name.length).toBeLessThanOrEqual(200);
  expect(name).not.toMatch(/[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/);
  expect(name).not.toMatch(/[. ]$/);
  expect(name).toBe(name.trimStart());
  expect(name).not.toMatch(/^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i);
  expect(name).not.toMatch(/\.(lnk|local|url|scf)$/i);
  expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
}

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

describe('the rules as properties, for any name', () => {
  it('a sanitised name is safe, and sanitising it again changes nothing', () => {
    fc.assert(
      fc.property(anyName, (raw) => {
        const name = sanitizeName(raw);
        expectSafe(name);
        expect(sanitizeName(name)).toBe(name);
      }),
      { numRuns: 3000 },
    );
  });

  it('a numbered alternative of a safe name is safe too, and stays as it is', () => {
    fc.assert(
      fc.property(anyName, fc.integer({ min: 2, max: 1000 }), (raw, n) => {
        const numbered = numberedName(sanitizeName(raw), n);
        expectSafe(numbered);
        expect(numbered).toContain(` (${n})`);
        expect(sanitizeName(numbered)).toBe(numbered);
      }),
      { numRuns: 3000 },
    );
  });

  it('a path made safe for a folder on disk is safe there, and stays as it is', () => {
    fc.assert(
      fc.property(anyPath, (raw) => {
        const { directories, name } = treePath(raw);
        [...directories, name].forEach(expectSafe);
        expect(treePath([...directories, name].join('/'))).toEqual({ directories, name });
      }),
      { numRuns: 1000 },
    );
  });

  it('archive paths cannot climb out or carry control characters, are unique ignoring case, and stay as they are when named again', () => {
    fc.assert(
      fc.property(fc.array(anyPath, { maxLength: 12 }), (raw) => {
        const paths = uniqueEntryPaths(raw);
        expect(paths).toHaveLength(raw.length);
        paths.forEach(expectSafeInArchive);
        expect(new Set(paths.map((path) => path.toLowerCase())).size).toBe(paths.length);
        expect(uniqueEntryPaths(paths)).toEqual(paths);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('uniqueEntryPaths', () => {
  it('keeps safe paths as they are and numbers a repeated path (ignoring case) before the extension', () => {
    expect(uniqueEntryPaths(['docs/a.txt', 'docs/a.txt', 'docs/A.TXT', 'README', 'readme', 'docs/a (2).txt'])).toEqual([
      'docs/a.txt',
      'docs/a (2).txt',
      'docs/A (3).TXT',
      'README',
      'readme (2)',
      'docs/a (2) (2).txt',
    ]);
  });

  it('turns climbing, absolute and drive paths into paths inside the archive', () => {
    expect(uniqueEntryPaths(['../../etc/passwd', '/abs/x', 'C:\\Windows\\win.ini', 'a/./b//c', '.. /. ./x', 'd:x'])).toEqual([
      '_/_/etc/passwd',
      'abs/x',
      'C_/Windows/win.ini',
      'a/b/c',
      '_/_/x',
      'd_x',
    ]);
  });

  it('keeps every other character as the uploader named the file (the rules of a file system are the extractor\'s)', () => {
    const names = ['Grüße & Notizen "Q3".txt', 'a<b>|c?*.txt', 'con.txt', 'trailing dot.', 'Start.lnk', 'dir: 12:30/x.txt', 'x'.repeat(300)];
    expect(uniqueEntryPaths(names)).toEqual(names);
    expect(entryPath('tab\there/bell\u0007.txt')).toBe('tab_here/bell_.txt');
  });
});

describe('long names', () => {
  it('a numbered long name is shortened before the counter, keeping the extension', () => {
    const name = sanitizeName(`${'x'.repeat(400)}.pdf`);
    const numbered = numberedName(name, 12);
    expect(numbered).toBe(`${'x'.repeat(200 - ' (12)'.length - '.pdf'.length)} (12).pdf`);
  });

  it('never leaves the shortened name ending in a dot or a space', () => {
    expect(sanitizeName(`${'x'.repeat(190)}${' '.repeat(30)}y`)).toBe('x'.repeat(190));
    expect(numberedName(`${'x'.repeat(185)}. . . . . .pdf`, 2)).toBe(`${'x'.repeat(185)} (2).pdf`);
  });

  it('defuses a refused extension that shortening bares inside the name', () => {
    expect(sanitizeName(`${'x'.repeat(196)}.lnk.${'e'.repeat(25)}`)).toBe(`${'x'.repeat(196)}.ln_`);
  });

  it('defuses a device name that shortening bares', () => {
    // 'con' and a long run of ' .' before its extension: the cut leaves 'con' and the extension.
    expect(sanitizeName(`con${' .'.repeat(100)} *`)).toBe('_con. _');
    expect(sanitizeName(`NUL${' .'.repeat(100)}.txt`)).toBe('_NUL.txt');
  });

  it('never splits a character made of two UTF-16 units', () => {
    const name = sanitizeName(`${'x'.repeat(195)}${'😀'.repeat(10)}.pdf`);
    expect(name).toBe(`${'x'.repeat(195)}.pdf`);
  });
});
