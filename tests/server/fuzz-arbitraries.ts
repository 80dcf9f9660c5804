// What the API fuzzer sends: hostile and valid-looking values for path parameters, query strings,
// headers and JSON/form/raw bodies. Values that name live test data (a folder id, an upload link)
// are generated as references into fixture pools and resolved when the request is built, so a
// seed replays the same cases against a fresh server whose tokens differ.
import fc from 'fast-check';

/** Pools of live values the fuzz suite fills in (see api-fuzz.test.ts). */
export type FixturePool =
  | 'adminFolderId'
  | 'adminFileId'
  | 'otherFolderId'
  | 'otherFileId'
  | 'downloadToken'
  | 'passwordDownloadToken'
  | 'uploadToken'
  | 'gatedUploadToken'
  | 'emailUploadToken'
  | 'tusUploadId';

export const FIXTURE_POOLS: readonly FixturePool[] = [
  'adminFolderId',
  'adminFileId',
  'otherFolderId',
  'otherFileId',
  'downloadToken',
  'passwordDownloadToken',
  'uploadToken',
  'gatedUploadToken',
  'emailUploadToken',
  'tusUploadId',
];

export type Fixtures = Record<FixturePool, string>;

/** A value that is either literal text or a reference to a live fixture. */
export type Filled = { fixture: FixturePool } | { text: string };

export function resolve(value: Filled, fixtures: Fixtures): string {
  return 'fixture' in value ? fixtures[value.fixture] : value.text;
}

// ---- strings ----

/** Fragments that have broken parsers, path handling and databases before. */
export const HOSTILE_FRAGMENTS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '..',
  '../',
  '..\\',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'C:\\Windows\\system32',
  '\\\\server\\share',
  '%00',
  '%2e%2e%2f',
  '%',
  '%zz',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '\uDFFF',
  '😀',
  'e\u0301',
  'ﬁ',
  'İ',
  '\r\n',
  '\t',
  "'; drop table users; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'null',
  'undefined',
  'true',
  '-1',
  '0',
  '1e309',
  'NaN',
  '0x10',
  '9'.repeat(40),
  'CON',
  'a'.repeat(300),
] as const;

/** A sentinel name: if a file with it ever appears outside DATA_DIR, a traversal escaped. */
export const ESCAPE_MARKER = 'sealdrop-fuzz-escape';

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...HOSTILE_FRAGMENTS), { minLength: 1, maxLength: 5 }).map((p) => p.join('')) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(`../../${ESCAPE_MARKER}`, `../../../../../../tmp/${ESCAPE_MARKER}`, `/tmp/${ESCAPE_MARKER}`) },
  // Long ones: near and past the schemas' maximums (255, 1024, 4096, 64 KiB fields).
  { weight: 1, arbitrary: fc.constantFrom(256, 1025, 4097, 8193, 70_000).chain((n) => fc.constantFrom('a', 'é', '😀', '\u0000').map((c) => c.repeat(n))) },
);

/** Values a real client would send somewhere in the API, so some requests get past validation. */
const plausibleString: fc.Arbitrary<string> = fc.constantFrom(
  'correct horse',
  'fuzzadmin',
  'alice',
  'a@example.com',
  'ALICE@EXAMPLE.COM ',
  '123456',
  '000000',
  'Tax documents',
  '2030-01-31T12:00:00Z',
  '2030-02-31T12:00:00+02:00',
  '1999-01-01T00:00:00.000Z',
  'title',
  'creation_date',
  'expiration_date',
  'last_upload_time',
  'asc',
  'desc',
  Buffer.alloc(256, 7).toString('base64'),
  Buffer.alloc(12, 3).toString('base64'),
  Buffer.alloc(16, 1).toString('base64'),
  'a'.repeat(64),
  'A'.repeat(43),
  '0123456789abcdef0123456789abcdef',
  '{}',
  '{"1":"a:b"}',
);

export const fuzzString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: plausibleString },
);

/** A string with a NUL byte somewhere: what PostgreSQL text cannot hold (SQLite can). */
export const withNul: fc.Arbitrary<string> = fc.tuple(fuzzString, fc.nat()).map(([s, at]) => {
  const i = at % (s.length + 1);
  return `${s.slice(0, i)}\u0000${s.slice(i)}`;
});

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD). */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// ---- path parameters ----

const NUMERIC_EDGES = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '+1',
  ' 1',
  '1 ',
  '0x1',
  '01',
  '9007199254740993',
  '99999999999999999999999999',
  '2147483648',
  '-9223372036854775809',
  'Infinity',
  'NaN',
  '١',
  '１',
];

/** The fixtures a parameter most likely names, from its name and the route (a new route falls back to all). */
function likelyPools(url: string, name: string): readonly FixturePool[] {
  if (name === 'link_token' && url.startsWith('/api/upload/')) return ['uploadToken', 'gatedUploadToken', 'emailUploadToken'];
  if (name === 'link_token' && url.startsWith('/api/download/')) return ['downloadToken', 'passwordDownloadToken'];
  if (name === 'upload_id') return ['tusUploadId'];
  if (name === 'fileId') return ['adminFileId', 'otherFileId'];
  if (name === 'folderId') return ['adminFolderId', 'otherFolderId'];
  // DELETE /download/links/:id names a link by its token.
  if (name === 'id' && url.startsWith('/api/download/links/')) return ['downloadToken', 'passwordDownloadToken'];
  if (name === 'id') return ['adminFolderId', 'otherFolderId'];
  return FIXTURE_POOLS;
}

const fixtureOf = (pools: readonly FixturePool[]) => fc.constantFrom(...pools).map((fixture): Filled => ({ fixture }));

/** A path parameter: live ids and tokens (to reach handlers), edge numbers, token-like and hostile text. */
export function paramValue(url: string, name: string): fc.Arbitrary<Filled> {
  return fc.oneof(
    { weight: 6, arbitrary: fixtureOf(likelyPools(url, name)) },
    { weight: 1, arbitrary: fixtureOf(FIXTURE_POOLS) },
    { weight: 2, arbitrary: fc.constantFrom(...NUMERIC_EDGES).map((text): Filled => ({ text })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 50 }).map((n): Filled => ({ text: String(n) })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.base64String({ minLength: 43, maxLength: 44 }), fc.stringMatching(/^[0-9a-f]{32}$/))
        .map((text): Filled => ({ text: text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '') })),
    },
    { weight: 3, arbitrary: hostileString.filter((s) => s !== '').map((text): Filled => ({ text })) },
  );
}

// ---- query strings ----

const QUERY_KEYS = ['sort_by', 'sort_order', 'file_ids', '__proto__', 'constructor', 'prototype', 'a[b]', '__proto__[polluted]', 'sort_by[]'];
const QUERY_VALUES = ['1', '1,2', '1,,2', '0', '-1', '2147483648', '1,2147483648', `${'1,'.repeat(600)}1`];

export const queryString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 5,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileString), fc.oneof(fuzzString, fc.constantFrom(...QUERY_VALUES))), { maxLength: 4 })
      .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}`)),
  },
  // Shapes the query parser itself has to survive: bare keys, empty pairs, stray and broken escapes.
  { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?sort_by', '?sort_by=%', '?sort_by=%zz', '?%00=%00', `?${'a=1&'.repeat(2000)}`) },
);

// ---- headers ----

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=x',
  'application/offset+octet-stream',
  'text/plain',
  'application/octet-stream',
  'application/vnd.api+json',
  '',
  ';',
  'application/json; boundary="',
];

/** Latin-1 text without CR, LF or NUL: what an HTTP header line can carry at all. */
const headerText = fc.oneof(
  fuzzString.map((s) => Buffer.from(s, 'utf8').toString('latin1').replace(/[\r\n\u0000]/g, '')),
  fc.constantFrom('', ' ', 'a'.repeat(4000)),
);

/** Extra headers a case adds to what the identity sends (cookies, CSRF). Names may repeat. */
export const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constant('content-type'), fc.constantFrom(...CONTENT_TYPES)) },
    { weight: 4, arbitrary: fc.tuple(fc.constant('x-csrftoken'), fc.oneof(headerText, fc.constant('A'.repeat(43)))) },
    {
      weight: 4,
      arbitrary: fc.tuple(
        fc.constant('cookie'),
        fc.oneof(headerText, fc.constantFrom('sealdrop_session=', 'csrftoken=x; csrftoken=y', 'sealdrop_session=%zz', 'sealdrop_upload_grant=abc', `sealdrop_link_grant=${'A'.repeat(43)}`, '=;=;')),
      ),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(
        fc.constant('range'),
        fc.constantFrom('bytes=0-0', 'bytes=-0', 'bytes=5-1', 'bytes=999999999999999999999-', 'bytes=0-1,2-3', 'bytes=-99999999999', 'bytes=abc', 'items=0-1', 'bytes=1-'),
      ),
    },
    { weight: 2, arbitrary: fc.tuple(fc.constant('if-range'), headerText) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'upload-defer-length'), headerText) },
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'accept', 'accept-encoding', 'origin', 'referer', 'user-agent'), headerText) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('content-encoding'), fc.constantFrom('gzip', 'br', 'identity', 'x-unknown')) },
    { weight: 1, arbitrary: fc.tuple(fc.constant('expect'), fc.constantFrom('100-continue', 'nonsense')) },
  ),
  { maxLength: 3 },
);
