// perform_mime_check: the server only ever sees ciphertext, so the page checks, before encrypting,
// that a file's first bytes carry the signature its extension promises (a '.pdf' that is really an
// executable, a '.jpg' that is a ZIP). Only extensions with a reliable binary signature are
// checked; anything else (text formats, unknown or missing extensions) passes. The table is
// documented in docs/upload.md; keep the two in step.

import type { MessageDescriptor } from 'react-intl';
import { t } from '../../i18n/language.ts';
import { signatureKinds, signatureMessages } from './messages.ts';

/** Bytes read from the start of a file for the check (PDF allows its header within the first KiB). */
export const SIGNATURE_BYTES = 1024;

interface Signature {
  /** What a file with this signature is, as the mismatch message words it. */
  readonly kind: MessageDescriptor;
  readonly matches: (head: Uint8Array) => boolean;
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

function at(offset: number, bytes: readonly number[]) {
  return (head: Uint8Array) => head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
}

function anyOf(...tests: Array<(head: Uint8Array) => boolean>) {
  return (head: Uint8Array) => tests.some((test) => test(head));
}

function within(limit: number, bytes: readonly number[]) {
  return (head: Uint8Array) => {
    const last = Math.min(limit, head.length) - bytes.length;
    for (let offset = 0; offset <= last; offset++) if (at(offset, bytes)(head)) return true;
    return false;
  };
}

const riff = (form: string) => (head: Uint8Array) => at(0, ascii('RIFF'))(head) && at(8, ascii(form))(head);

const SIGNATURES = {
  png: { kind: signatureKinds.png, matches: at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  jpeg: { kind: signatureKinds.jpeg, matches: at(0, [0xff, 0xd8, 0xff]) },
  gif: { kind: signatureKinds.gif, matches: anyOf(at(0, ascii('GIF87a')), at(0, ascii('GIF89a'))) },
  webp: { kind: signatureKinds.webp, matches: riff('WEBP') },
  bmp: { kind: signatureKinds.bmp, matches: at(0, ascii('BM')) },
  tiff: { kind: signatureKinds.tiff, matches: anyOf(at(0, [0x49, 0x49, 0x2a, 0x00]), at(0, [0x4d, 0x4d, 0x00, 0x2a])) },
  ico: { kind: signatureKinds.ico, matches: at(0, [0x00, 0x00, 0x01, 0x00]) },
  psd: { kind: signatureKinds.psd, matches: at(0, ascii('8BPS')) },
  pdf: { kind: signatureKinds.pdf, matches: within(SIGNATURE_BYTES, ascii('%PDF-')) },
  rtf: { kind: signatureKinds.rtf, matches: at(0, ascii('{\\rtf')) },
  zip: { kind: signatureKinds.zip, matches: anyOf(at(0, [0x50, 0x4b, 0x03, 0x04]), at(0, [0x50, 0x4b, 0x05, 0x06]), at(0, [0x50, 0x4b, 0x07, 0x08])) },
  ole: { kind: signatureKinds.ole, matches: at(0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  gzip: { kind: signatureKinds.gzip, matches: at(0, [0x1f, 0x8b]) },
  bzip2: { kind: signatureKinds.bzip2, matches: at(0, ascii('BZh')) },
  xz: { kind: signatureKinds.xz, matches: at(0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) },
  sevenZip: { kind: signatureKinds.sevenZip, matches: at(0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  rar: { kind: signatureKinds.rar, matches: at(0, ascii('Rar!\x1a\x07')) },
  isoBmff: { kind: signatureKinds.isoBmff, matches: at(4, ascii('ftyp')) },
  quicktime: {
    kind: signatureKinds.quicktime,
    matches: anyOf(at(4, ascii('ftyp')), at(4, ascii('moov')), at(4, ascii('mdat')), at(4, ascii('wide')), at(4, ascii('free')), at(4, ascii('skip'))),
  },
  mp3: { kind: signatureKinds.mp3, matches: anyOf(at(0, ascii('ID3')), (h) => h.length >= 2 && h[0] === 0xff && (h[1]! & 0xe0) === 0xe0) },
  wav: { kind: signatureKinds.wav, matches: riff('WAVE') },
  avi: { kind: signatureKinds.avi, matches: riff('AVI ') },
  ogg: { kind: signatureKinds.ogg, matches: at(0, ascii('OggS')) },
  flac: { kind: signatureKinds.flac, matches: at(0, ascii('fLaC')) },
  matroska: { kind: signatureKinds.matroska, matches: at(0, [0x1a, 0x45, 0xdf, 0xa3]) },
  exe: { kind: signatureKinds.exe, matches: at(0, ascii('MZ')) },
  wasm: { kind: signatureKinds.wasm, matches: at(0, [0x00, 0x61, 0x73, 0x6d]) },
} satisfies Record<string, Signature>;

/** Extension (lower case, without the dot) -> the signature its content must start with. */
export const SIGNATURE_BY_EXTENSION: Readonly<Record<string, Signature>> = {
  png: SIGNATURES.png,
  jpg: SIGNATURES.jpeg,
  jpeg: SIGNATURES.jpeg,
  jpe: SIGNATURES.jpeg,
  jfif: SIGNATURES.jpeg,
  gif: SIGNATURES.gif,
  webp: SIGNATURES.webp,
  bmp: SIGNATURES.bmp,
  tif: SIGNATURES.tiff,
  tiff: SIGNATURES.tiff,
  ico: SIGNATURES.ico,
  psd: SIGNATURES.psd,
  pdf: SIGNATURES.pdf,
  rtf: SIGNATURES.rtf,
  zip: SIGNATURES.zip,
  docx: SIGNATURES.zip,
  xlsx: SIGNATURES.zip,
  pptx: SIGNATURES.zip,
  odt: SIGNATURES.zip,
  ods: SIGNATURES.zip,
  odp: SIGNATURES.zip,
  epub: SIGNATURES.zip,
  jar: SIGNATURES.zip,
  apk: SIGNATURES.zip,
  doc: SIGNATURES.ole,
  xls: SIGNATURES.ole,
  ppt: SIGNATURES.ole,
  msg: SIGNATURES.ole,
  gz: SIGNATURES.gzip,
  tgz: SIGNATURES.gzip,
  bz2: SIGNATURES.bzip2,
  xz: SIGNATURES.xz,
  '7z': SIGNATURES.sevenZip,
  rar: SIGNATURES.rar,
  mp4: SIGNATURES.isoBmff,
  m4v: SIGNATURES.isoBmff,
  m4a: SIGNATURES.isoBmff,
  '3gp': SIGNATURES.isoBmff,
  heic: SIGNATURES.isoBmff,
  heif: SIGNATURES.isoBmff,
  avif: SIGNATURES.isoBmff,
  mov: SIGNATURES.quicktime,
  mp3: SIGNATURES.mp3,
  wav: SIGNATURES.wav,
  avi: SIGNATURES.avi,
  ogg: SIGNATURES.ogg,
  oga: SIGNATURES.ogg,
  ogv: SIGNATURES.ogg,
  opus: SIGNATURES.ogg,
  flac: SIGNATURES.flac,
  mkv: SIGNATURES.matroska,
  webm: SIGNATURES.matroska,
  exe: SIGNATURES.exe,
  dll: SIGNATURES.exe,
  wasm: SIGNATURES.wasm,
};

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

/** Whether `head` (the file's first SIGNATURE_BYTES bytes, or all of a shorter file) fits the name. */
export function checkContentSignature(name: string, head: Uint8Array): SignatureCheck {
  const extension = extensionOf(name);
  const signature = extension === null ? undefined : SIGNATURE_BY_EXTENSION[extension];
  if (!signature || signature.matches(head)) return { ok: true };
  return { ok: false, reason: t(signatureMessages.mismatch, { extension, kind: t(signature.kind) }) };
}

/** Reads the start of a file and checks it. */
export async function checkFileSignature(file: Blob & { name: string }): Promise<SignatureCheck> {
  const extension = extensionOf(file.name);
  if (extension === null || !SIGNATURE_BY_EXTENSION[extension]) return { ok: true };
  const head = new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer());
  return checkContentSignature(file.name, head);
}
