import { describe, expect, it } from 'vitest';
import { checkContentSignature, checkFileSignature, extensionOf } from './contentSignature.ts';

const bytes = (...values: Array<number | string>) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? Array.from(v, (c) => c.charCodeAt(0)) : [v])));

const PNG = bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF');
const ZIP = bytes('PK', 3, 4, 20, 0);
const MZ = bytes('MZ', 0x90, 0);
const MP4 = bytes(0, 0, 0, 0x20, 'ftypisom');

describe('checkContentSignature', () => {
  it('accepts files whose content matches their extension, in any letter case', () => {
    expect(checkContentSignature('photo.PNG', PNG)).toEqual({ ok: true });
    expect(checkContentSignature('photo.jpeg', JPEG)).toEqual({ ok: true });
    expect(checkContentSignature('report.docx', ZIP)).toEqual({ ok: true });
    expect(checkContentSignature('clip.mp4', MP4)).toEqual({ ok: true });
    expect(checkContentSignature('scan.pdf', bytes('\n\n%PDF-1.7'))).toEqual({ ok: true });
  });

  it('refuses a mismatch with a message naming the expected type', () => {
    expect(checkContentSignature('invoice.pdf', MZ)).toEqual({
      ok: false,
      reason: 'File content does not match its type: a .pdf file should be a PDF document.',
    });
    expect(checkContentSignature('holiday.jpg', ZIP)).toMatchObject({ ok: false });
    expect(checkContentSignature('setup.exe', PNG)).toMatchObject({ ok: false });
  });

  it('refuses an empty file that claims a checked type', () => {
    expect(checkContentSignature('empty.png', new Uint8Array(0))).toMatchObject({ ok: false });
  });

  it('lets unknown, text and extension-less files pass', () => {
    expect(checkContentSignature('notes.txt', MZ)).toEqual({ ok: true });
    expect(checkContentSignature('data.csv', PNG)).toEqual({ ok: true });
    expect(checkContentSignature('Makefile', MZ)).toEqual({ ok: true });
    expect(checkContentSignature('.hidden', MZ)).toEqual({ ok: true });
  });
});

describe('checkFileSignature', () => {
  it('reads the start of a Blob', async () => {
    const file = Object.assign(new Blob([PNG, new Uint8Array(5000)]), { name: 'a.png' });
    expect(await checkFileSignature(file)).toEqual({ ok: true });
    const fake = Object.assign(new Blob([ZIP]), { name: 'a.png' });
    expect(await checkFileSignature(fake)).toMatchObject({ ok: false });
  });
});

describe('extensionOf', () => {
  it('takes the part after the last dot, not of dot-files', () => {
    expect(extensionOf('a.tar.GZ')).toBe('gz');
    expect(extensionOf('.bashrc')).toBeNull();
    expect(extensionOf('name.')).toBeNull();
  });
});
