// Multipart bodies for fuzzing POST /api/upload/{link_token}: well-formed batches whose names and
// relative paths are hostile (traversal, absolute and Windows paths, NUL, unicode), and damaged
// streams (cut short, wrong or missing boundaries, broken part headers, too many fields). Written
// byte by byte, because the interesting cases are the ones no multipart library would produce.
import fc from 'fast-check';
import type { FileRecord } from '../../server/db/repositories/index.ts';
import { ESCAPE_MARKER, hostileString, withNul } from './fuzz-arbitraries.ts';

export interface FilePartSpec {
  filename: string;
  /** Plaintext size; the part carries the exact ciphertext length of it, plus `sizeSkew` bytes. */
  plainSize: number;
  sizeSkew: number;
}

export interface UploadBatch {
  files: FilePartSpec[];
  encryptedKeys: string[];
  ivs: string[];
  hashes: string[];
  relativePaths: string[];
  fileSizes: string[];
  gateFields: Array<[string, string]>;
  /** Where the per-file fields go: after the files (as the page sends them), before, or interleaved. */
  order: 'files-first' | 'fields-first' | 'interleaved';
  link: 'uploadToken' | 'gatedUploadToken' | 'emailUploadToken';
}

export type Damage =
  | { kind: 'none' }
  /** The body stops after this fraction of the bytes before the closing delimiter. */
  | { kind: 'truncate'; fraction: number }
  | { kind: 'no-close' }
  | { kind: 'wrong-boundary'; declared: string }
  | { kind: 'no-boundary-param' }
  | { kind: 'broken-part-header'; style: 'no-disposition' | 'no-name' | 'unquoted-name' | 'no-blank-line' | 'garbage-line' }
  | { kind: 'not-multipart'; contentType: string };

export interface MultipartCase {
  batch: UploadBatch;
  damage: Damage;
  /** Extra text fields appended (tens of thousands for the field limit). */
  extraFields: number;
  preamble: string;
}

const VALID_KEY = Buffer.alloc(256, 7).toString('base64');
const VALID_IV = Buffer.alloc(12, 3).toString('base64');
const VALID_HASH = 'ab'.repeat(32);

/** Names and relative paths an attacker would try; the server must neither escape nor choke. */
const hostilePath: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '.',
    '',
    '../../etc/passwd',
    `../../${ESCAPE_MARKER}`,
    `../../../../../../tmp/${ESCAPE_MARKER}`,
    '/etc/passwd',
    `/tmp/${ESCAPE_MARKER}`,
    '..\\..\\windows\\system32',
    'C:\\Users\\x',
    '\\\\server\\share\\x',
    'a/../../b',
    'a/./b//c/',
    'docs\u0000/../x',
    '..\u0000/x',
    '.\u0000.',
    'Ünïcode/😀/e\u0301',
    '%2e%2e/%2e%2e',
    '....//....//',
    '. ./ ..',
    `${'a/'.repeat(2100)}x`,
  ),
  hostileString,
  withNul,
);

const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('report.pdf', 'Grüße %22quoted%22.txt', '..', '.', '', '../../etc/passwd', `../${ESCAPE_MARKER}`, '/etc/shadow', 'a\\b', 'nul\u0000byte.txt', 'x'.repeat(1025)),
  hostileString,
  withNul,
);

const keyValue = fc.oneof({ weight: 4, arbitrary: fc.constant(VALID_KEY) }, { weight: 1, arbitrary: hostileString });
const ivValue = fc.oneof({ weight: 4, arbitrary: fc.constant(VALID_IV) }, { weight: 1, arbitrary: hostileString });
const hashValue = fc.oneof({ weight: 4, arbitrary: fc.constant(VALID_HASH) }, { weight: 1, arbitrary: fc.constantFrom('AB'.repeat(32), 'g'.repeat(64), '') }, { weight: 1, arbitrary: hostileString });

/** n values, or (sometimes) one too few or too many. */
function perFile<T>(n: number, value: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(value, { minLength: n, maxLength: n }) },
    { weight: 1, arbitrary: fc.array(value, { minLength: 0, maxLength: n + 1 }) },
  );
}

export const uploadBatch: fc.Arbitrary<UploadBatch> = fc.integer({ min: 0, max: 4 }).chain((n) =>
  fc.record({
    files: fc.array(
      fc.record({
        filename: hostileName,
        plainSize: fc.integer({ min: 0, max: 300 }),
        sizeSkew: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1, -16) }),
      }),
      { minLength: n, maxLength: n },
    ),
    encryptedKeys: perFile(n, keyValue),
    ivs: perFile(n, ivValue),
    hashes: perFile(n, hashValue),
    relativePaths: fc.oneof(fc.constant<string[]>([]), perFile(n, hostilePath)),
    fileSizes: fc.oneof({ weight: 3, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: perFile(n, fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), hostileString)) }),
    gateFields: fc
      .record(
        {
          link_password: fc.oneof(fc.constantFrom('link password 1', 'wrong password'), hostileString),
          uploader_email: fc.oneof(fc.constantFrom('a@example.com', ' A@Example.com ', 'a\u0000@example.com', 'not an address'), hostileString),
          verification_code: fc.oneof(fc.constantFrom('123456', '12\u00003456'), hostileString),
        },
        { requiredKeys: [] },
      )
      .map((fields) => Object.entries(fields) as Array<[string, string]>),
    order: fc.constantFrom('files-first', 'fields-first', 'interleaved'),
    link: fc.oneof(
      { weight: 6, arbitrary: fc.constant('uploadToken' as const) },
      { weight: 1, arbitrary: fc.constant('gatedUploadToken' as const) },
      { weight: 2, arbitrary: fc.constant('emailUploadToken' as const) },
    ),
  }),
);

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Damage>({ kind: 'none' }) },
  { weight: 3, arbitrary: fc.double({ min: 0, max: 0.999, noNaN: true }).map((fraction): Damage => ({ kind: 'truncate', fraction })) },
  { weight: 1, arbitrary: fc.constant<Damage>({ kind: 'no-close' }) },
  { weight: 1, arbitrary: fc.constantFrom('other', '', '"', 'x'.repeat(100), '--', 'a b').map((declared): Damage => ({ kind: 'wrong-boundary', declared })) },
  { weight: 1, arbitrary: fc.constant<Damage>({ kind: 'no-boundary-param' }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('no-disposition', 'no-name', 'unquoted-name', 'no-blank-line', 'garbage-line')
      .map((style): Damage => ({ kind: 'broken-part-header', style: style as Extract<Damage, { kind: 'broken-part-header' }>['style'] })),
  },
  { weight: 1, arbitrary: fc.constantFrom('multipart/mixed; boundary=B', 'application/json', 'text/plain', 'multipart/form-data; boundary=B; boundary=C').map((contentType): Damage => ({ kind: 'not-multipart', contentType })) },
);

export const multipartCase: fc.Arbitrary<MultipartCase> = fc.record({
  batch: uploadBatch,
  damage,
  extraFields: fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(10, 5100, 7000) }),
  preamble: fc.constantFrom('', '', 'preamble text\r\n', '\r\n'),
});

export interface BuiltMultipart {
  body: Buffer;
  contentType: string;
  /** True when the stream cannot be read to its end as multipart/form-data: no record may come of it. */
  damaged: boolean;
  /** Length of the whole body before any truncation (what a client that drops out had declared). */
  intactLength: number;
}

/** Turns a case into bytes; `cipherLength` is the server's encrypted length of a plaintext size. */
export function buildMultipart(c: MultipartCase, cipherLength: (plainSize: number) => number): BuiltMultipart {
  const boundary = '----sealdropfuzz7MA4YWxkTrZu0gW';
  const headerStyle = c.damage.kind === 'broken-part-header' ? c.damage.style : null;
  let brokenOnce = false;
  const part = (disposition: string, extraHeaders: string, data: Buffer): Buffer => {
    let headers = `Content-Disposition: form-data; ${disposition}\r\n${extraHeaders}`;
    let blank = '\r\n';
    if (headerStyle && !brokenOnce) {
      brokenOnce = true;
      if (headerStyle === 'no-disposition') headers = extraHeaders || 'Content-Type: text/plain\r\n';
      if (headerStyle === 'no-name') headers = `Content-Disposition: form-data\r\n${extraHeaders}`;
      if (headerStyle === 'unquoted-name') headers = headers.replace(/name="([^"]*)"/, 'name=$1');
      if (headerStyle === 'no-blank-line') blank = '';
      if (headerStyle === 'garbage-line') headers += 'this is not a header\r\n';
    }
    return Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}${blank}`, 'utf8'), data, Buffer.from('\r\n')]);
  };
  const field = (name: string, value: string) => part(`name="${name}"`, '', Buffer.from(value, 'utf8'));
  const { batch } = c;
  const fileParts = batch.files.map((f) =>
    part(
      `name="files"; filename="${f.filename.replace(/"/g, '%22').replace(/[\r\n]/g, ' ')}"`,
      'Content-Type: application/octet-stream\r\n',
      Buffer.alloc(Math.max(0, cipherLength(f.plainSize) + f.sizeSkew), 0x5a),
    ),
  );
  const fieldParts: Buffer[] = [];
  const add = (name: string, values: string[]) => values.forEach((v) => fieldParts.push(field(name, v)));
  add('encrypted_keys', batch.encryptedKeys);
  add('encryption_ivs', batch.ivs);
  add('file_hashes', batch.hashes);
  add('relative_paths', batch.relativePaths);
  add('file_sizes', batch.fileSizes);
  const gateParts = batch.gateFields.map(([name, value]) => field(name, value));
  let ordered: Buffer[];
  if (batch.order === 'files-first') ordered = [...gateParts, ...fileParts, ...fieldParts];
  else if (batch.order === 'fields-first') ordered = [...gateParts, ...fieldParts, ...fileParts];
  else ordered = [...gateParts, ...fileParts.flatMap((p, i) => [p, ...(fieldParts[i] ? [fieldParts[i]!] : [])]), ...fieldParts.slice(fileParts.length)];
  for (let i = 0; i < c.extraFields; i++) ordered.push(field('padding', 'x'));

  const content = Buffer.concat([Buffer.from(c.preamble), ...ordered]);
  const close = Buffer.from(`--${boundary}--\r\n`);
  let body = Buffer.concat([content, close]);
  const intactLength = body.length;
  let contentType = `multipart/form-data; boundary=${boundary}`;
  let damaged = false;
  switch (c.damage.kind) {
    case 'truncate':
      body = content.subarray(0, Math.floor(content.length * c.damage.fraction));
      damaged = true;
      break;
    case 'no-close':
      body = content;
      damaged = true;
      break;
    case 'wrong-boundary':
      contentType = `multipart/form-data; boundary=${c.damage.declared}`;
      damaged = true;
      break;
    case 'no-boundary-param':
      contentType = 'multipart/form-data';
      damaged = true;
      break;
    case 'broken-part-header':
      // The parser may skip a part it cannot read and take the rest: checked for consistency only.
      break;
    case 'not-multipart':
      contentType = c.damage.contentType;
      damaged = true;
      break;
    case 'none':
      break;
  }
  return { body, contentType, damaged, intactLength };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a stored file record is unsafe (a path that climbs, a separator in a name), or null. */
export function unsafeRecord(record: FileRecord): string | null {
  const segments = record.relativePath.split('/');
  if (record.relativePath !== '.' && segments.some((s) => s === '' || s === '.' || s === '..' || s.trim() === '')) {
    return `relative path ${JSON.stringify(record.relativePath)} has an empty, "." or ".." segment`;
  }
  if (/[\\]/.test(record.relativePath) || CONTROL.test(record.relativePath)) return `relative path ${JSON.stringify(record.relativePath)}`;
  const name = record.originalFilename;
  if (/[/\\]/.test(name) || CONTROL.test(name) || name === '.' || name === '..' || name.trim() === '') return `file name ${JSON.stringify(name)}`;
  const [first, ...rest] = record.storedFilename.split('/');
  if (!(UUID.test(first!) || /^[0-9a-f]{32}$/.test(first!))) return `stored_filename ${JSON.stringify(record.storedFilename)} does not start with an upload id`;
  const expected = record.relativePath === '.' ? name : `${record.relativePath}/${name}`;
  if (rest.join('/') !== expected) return `stored_filename ${JSON.stringify(record.storedFilename)} disagrees with its path and name`;
  if (!/^(files\/[0-9a-f-]{36}|uploads\/[0-9a-f]{32})$/.test(record.blobKey)) return `blob key ${JSON.stringify(record.blobKey)}`;
  return null;
}
