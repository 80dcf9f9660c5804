// tus 1.0 requests and HTTP framing cases for the API fuzzer: creation with bad Upload-Length and
// Upload-Metadata, PATCH with bad Upload-Offset and content types, HEAD and DELETE of live and
// made-up upload ids; and requests whose Content-Length or chunked encoding lies about the body.
import fc from 'fast-check';
import { fuzzString, hostileString, withNul, type Filled } from './fuzz-arbitraries.ts';

const TUS_METHODS = ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS'] as const;

/** `exact`: the encrypted length of the metadata's plainSize (resolved against the server's format). */
export type LengthValue = { exact: true; skew: number } | { text: string };

export interface TusCase {
  method: (typeof TUS_METHODS)[number];
  link: 'uploadToken' | 'gatedUploadToken' | 'emailUploadToken';
  uploadId: Filled;
  tusResumable: string | null;
  uploadLength: LengthValue[];
  /** `current`: the fixture upload's present offset. */
  uploadOffset: Array<{ current: true } | { text: string }>;
  metadata: string[];
  contentType: string | null;
  methodOverride: string | null;
  deferLength: string | null;
  body: Buffer;
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

const numberText = fc.oneof(
  fc.constantFrom('0', '-1', '1', '+1', '1.5', '1e3', '0x10', ' 5', '', 'abc', '18446744073709551616', '9007199254740993', '5368709120000', '00000000000000000000001'),
  fc.nat().map(String),
);

const metadataPair: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('filename', 'relativePath', 'encryptedKey', 'iv', 'plainSize'), fuzzString).map(([k, v]) => `${k} ${b64(v)}`) },
  { weight: 2, arbitrary: numberText.map((n) => `plainSize ${b64(n)}`) },
  { weight: 1, arbitrary: fc.constantFrom('filename', 'filename ', 'filename !!!notbase64', 'filename ====', ' filename Zm9v', 'file name Zm9v', '', ',', 'plainSize MTAwMA==,plainSize MA==') },
  { weight: 1, arbitrary: hostileString.map((k) => `${k.replace(/[\r\n\u0000,]/g, '')} ${b64('x')}`) },
);

/** Metadata a client would send, with one value swapped for a hostile one. */
const nearlyValidMetadata: fc.Arbitrary<string> = fc
  .record({
    filename: fc.oneof(fc.constant('file.bin'), fuzzString, withNul),
    relativePath: fc.oneof(fc.constant('.'), fuzzString, withNul),
    plainSize: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) }, { weight: 1, arbitrary: numberText }),
    encryptedKey: fc.oneof({ weight: 3, arbitrary: fc.constant(Buffer.alloc(256, 7).toString('base64')) }, { weight: 1, arbitrary: fuzzString }),
    iv: fc.oneof({ weight: 3, arbitrary: fc.constant(Buffer.alloc(12, 3).toString('base64')) }, { weight: 1, arbitrary: fuzzString }),
  })
  .map((m) => Object.entries(m).map(([k, v]) => `${k} ${b64(v)}`).join(','));

const uploadIdValue: fc.Arbitrary<Filled> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Filled>({ fixture: 'tusUploadId' }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/).map((text): Filled => ({ text })) },
  { weight: 1, arbitrary: hostileString.filter((s) => s !== '').map((text): Filled => ({ text })) },
);

/** Mostly the value a client sends, sometimes another, sometimes none: so most cases get far into tus. */
function mostly<T>(usual: T, others: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 8, arbitrary: fc.constant(usual) }, { weight: 2, arbitrary: others }, { weight: 1, arbitrary: fc.constant(null) });
}

export const tusCase: fc.Arbitrary<TusCase> = fc.record({
  method: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('POST' as const, 'PATCH' as const) }, { weight: 1, arbitrary: fc.constantFrom('HEAD' as const, 'DELETE' as const, 'OPTIONS' as const) }),
  link: fc.oneof(
    { weight: 8, arbitrary: fc.constant('uploadToken' as const) },
    { weight: 1, arbitrary: fc.constantFrom('gatedUploadToken' as const, 'emailUploadToken' as const) },
  ),
  uploadId: uploadIdValue,
  tusResumable: mostly('1.0.0', fc.constantFrom('0.2.2', '1.0', '', '1.0.0, 1.0.0')),
  uploadLength: fc.oneof(
    { weight: 6, arbitrary: fc.constant<LengthValue[]>([{ exact: true, skew: 0 }]) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 1).map((skew): LengthValue[] => [{ exact: true, skew }]) },
    { weight: 2, arbitrary: fc.array(numberText.map((text): LengthValue => ({ text })), { maxLength: 2 }) },
  ),
  uploadOffset: fc.oneof(
    { weight: 4, arbitrary: fc.constant<TusCase['uploadOffset']>([{ current: true }]) },
    { weight: 2, arbitrary: fc.array(numberText.map((text): { text: string } => ({ text })), { maxLength: 2 }) },
  ),
  metadata: fc.oneof(
    { weight: 5, arbitrary: nearlyValidMetadata.map((m) => [m]) },
    { weight: 2, arbitrary: fc.array(metadataPair, { maxLength: 6 }).map((pairs) => [pairs.join(',')]) },
    { weight: 1, arbitrary: fc.array(nearlyValidMetadata, { minLength: 0, maxLength: 2 }) },
  ),
  contentType: mostly(
    'application/offset+octet-stream',
    fc.constantFrom('application/offset+octet-stream; charset=x', 'application/json', 'text/plain', 'multipart/form-data; boundary=x'),
  ),
  methodOverride: fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('PATCH', 'DELETE', 'HEAD', 'GET', 'POST', 'OPTIONS', 'x') }),
  deferLength: fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('1', '0', 'yes') }),
  body: fc.oneof({ weight: 2, arbitrary: fc.constant(Buffer.alloc(0)) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => Buffer.alloc(n, 0x42)) }),
});

/** Ways a request's framing can lie. `end`: the client half-closes after writing (a dropped upload). */
export type Framing =
  | { kind: 'length-over'; extra: number }
  | { kind: 'length-under'; short: number }
  | { kind: 'length-text'; value: string }
  | { kind: 'length-twice'; second: number }
  | { kind: 'chunked'; style: 'valid' | 'bad-size' | 'no-last-chunk' | 'extension' | 'with-length' | 'gzip-chunked' | 'huge-size' }
  | { kind: 'expect-continue' };

export const framing: fc.Arbitrary<Framing> = fc.oneof(
  fc.integer({ min: 1, max: 100_000 }).map((extra): Framing => ({ kind: 'length-over', extra })),
  fc.integer({ min: 1, max: 20 }).map((short): Framing => ({ kind: 'length-under', short })),
  fc.constantFrom('-1', 'abc', '1.5', '+2', ' 2 ', '0x10', '99999999999999999999', '').map((value): Framing => ({ kind: 'length-text', value })),
  fc.integer({ min: 0, max: 5 }).map((second): Framing => ({ kind: 'length-twice', second })),
  fc.constantFrom('valid', 'bad-size', 'no-last-chunk', 'extension', 'with-length', 'gzip-chunked', 'huge-size').map((style): Framing => ({ kind: 'chunked', style: style as Extract<Framing, { kind: 'chunked' }>['style'] })),
  fc.constant<Framing>({ kind: 'expect-continue' }),
);

/** Applies a framing to a body: the headers to send, the bytes, and whether to half-close after them. */
export function frame(body: Buffer, f: Framing): { headers: Array<[string, string]>; body: Buffer; end: boolean } {
  const chunked = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n0\r\n\r\n')]);
  switch (f.kind) {
    case 'length-over':
      return { headers: [['content-length', String(body.length + f.extra)]], body, end: true };
    case 'length-under':
      return { headers: [['content-length', String(Math.max(0, body.length - f.short))]], body, end: false };
    case 'length-text':
      return { headers: [['content-length', f.value]], body, end: true };
    case 'length-twice':
      return { headers: [['content-length', String(body.length)], ['content-length', String(f.second)]], body, end: true };
    case 'expect-continue':
      return { headers: [['content-length', String(body.length)], ['expect', '100-continue']], body, end: false };
    case 'chunked': {
      const te: Array<[string, string]> = [['transfer-encoding', f.style === 'gzip-chunked' ? 'gzip, chunked' : 'chunked']];
      if (f.style === 'valid' || f.style === 'gzip-chunked') return { headers: te, body: chunked(body), end: false };
      if (f.style === 'with-length') return { headers: [...te, ['content-length', String(body.length)]], body: chunked(body), end: true };
      if (f.style === 'extension') return { headers: te, body: Buffer.concat([Buffer.from(`${body.length.toString(16)};name=value\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]), end: false };
      if (f.style === 'no-last-chunk') return { headers: te, body: Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')]), end: true };
      if (f.style === 'huge-size') return { headers: te, body: Buffer.concat([Buffer.from('fffffffffffffffff\r\n'), body]), end: true };
      return { headers: te, body: Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]), end: true };
    }
  }
}
