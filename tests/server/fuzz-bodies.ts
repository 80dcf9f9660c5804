// Request bodies for the API fuzzer. Generic ones: JSON built as a tree (so keys like __proto__
// and duplicate keys survive), parser-breaking JSON texts, forms and raw bytes, under matching and
// mismatched content types. And bodies that get past the schema but one field: a valid example
// body per documented route (docs/api.md) with one to three fields swapped for hostile values,
// removed, or joined by a prototype-pollution key. Random bodies rarely pass a schema whole, so
// without these the fuzzer would almost never reach what a handler does with a value (e.g. store
// a NUL byte in PostgreSQL). A route without an example still gets the generic bodies.
import fc from 'fast-check';
import { CONTENT_TYPES, fuzzString, hostileString, percentEncode, withNul, type Fixtures } from './fuzz-arbitraries.ts';

// ---- JSON bodies, built as a tree so keys like __proto__ and duplicate keys survive ----

export type JsonNode =
  | { t: 'raw'; v: string }
  | { t: 'arr'; v: JsonNode[] }
  | { t: 'obj'; v: Array<[string, JsonNode]> };

export function jsonText(node: JsonNode): string {
  if (node.t === 'raw') return node.v;
  if (node.t === 'arr') return `[${node.v.map(jsonText).join(',')}]`;
  return `{${node.v.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
}

/** Field names of the API's bodies (docs/api.md); the suite adds the ones the server names in 422s. */
export const BODY_FIELDS = [
  'username',
  'password',
  'auth_secret',
  'code',
  'current_auth_secret',
  'email',
  'old_auth_secret',
  'new_auth_secret',
  'new_kdf_params',
  'kdf_params',
  'private_key',
  'public_key_spki',
  'encryptedPrivateKey',
  'kdfSalt',
  'title',
  'description',
  'require_email_verification',
  'allowed_emails',
  'perform_mime_check',
  'expires_in_days',
  'expiration_date',
  'link_password',
  'is_active',
  'file_ids',
  'reencrypted_keys_json',
  'uploader_email',
  'verification_code',
  'uploads',
  'upload_id',
  'file_hash',
];

const jsonLeaf: fc.Arbitrary<JsonNode> = fc
  .oneof(
    { weight: 4, arbitrary: fuzzString.map((s) => JSON.stringify(s)) },
    { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'false', '0', '-0', '1', '-1', '1.5', '1e308', '-1e308', '1e-308', '9007199254740993', '123456789012345678901234567890') },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)) },
  )
  .map((v): JsonNode => ({ t: 'raw', v }));

export function jsonBody(fieldNames: () => readonly string[]): fc.Arbitrary<JsonNode> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.nat().map((n) => fieldNames()[n % fieldNames().length]!) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype') },
    { weight: 1, arbitrary: hostileString },
  );
  const { node } = fc.letrec<{ node: JsonNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      jsonLeaf,
      fc.array(tie('node'), { maxLength: 4 }).map((v): JsonNode => ({ t: 'arr', v })),
      fc.array(fc.tuple(key, tie('node')), { maxLength: 6 }).map((v): JsonNode => ({ t: 'obj', v })),
    ),
  }));
  // Mostly an object at the top, as every route expects.
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(fc.tuple(key, node), { maxLength: 8 }).map((v): JsonNode => ({ t: 'obj', v })) },
    { weight: 1, arbitrary: node },
  );
}

/** JSON texts that stress the parser rather than the schema. */
const pathologicalJson: fc.Arbitrary<Buffer> = fc.oneof(
  fc.integer({ min: 1000, max: 200_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)),
  fc.integer({ min: 1000, max: 100_000 }).map((n) => Buffer.from(`{"a":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`)),
  fc.integer({ min: 100, max: 50_000 }).map((n) => Buffer.from(`{"x":${'['.repeat(n)}{"constructor":{"prototype":{"polluted":1}}}${']'.repeat(n)}}`)),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"title":"a","title":{"__proto__":null}}',
    '{"title":"a\\u0000b"}',
    '{"title":"\\ud800"}',
    '\uFEFF{"title":"bom"}',
    '{"title":',
    '{"title":"unterminated',
    '[',
    'null',
    '"just a string"',
    '1e999999',
    '{"file_ids":[1e309]}',
    '{"file_ids":[-0, 1.0000000000000002, 9007199254740993]}',
  ).map((s) => Buffer.from(s)),
  // Over the 1 MiB body limit, and invalid UTF-8.
  fc.constant(Buffer.from(`{"title":"${'a'.repeat(1024 * 1024 + 10)}"}`)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from('{"title":"'), Buffer.from(bytes), Buffer.from('"}')])),
);

// ---- request bodies and headers ----

export interface BodyCase {
  kind: 'none' | 'json' | 'badjson' | 'form' | 'bytes';
  body: Buffer | undefined;
  contentType: string | undefined;
}


function withContentType(kind: BodyCase['kind'], natural: string, body: fc.Arbitrary<Buffer | undefined>): fc.Arbitrary<BodyCase> {
  return fc
    .tuple(body, fc.oneof({ weight: 4, arbitrary: fc.constant(natural) }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) }))
    .map(([b, contentType]) => ({ kind, body: b, contentType }));
}

export function bodyCase(fieldNames: () => readonly string[]): fc.Arbitrary<BodyCase> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom<string | undefined>(undefined, 'application/json', 'text/plain').map((contentType): BodyCase => ({ kind: 'none', body: undefined, contentType })) },
    { weight: 8, arbitrary: withContentType('json', 'application/json', jsonBody(fieldNames).map((node) => Buffer.from(jsonText(node)))) },
    { weight: 2, arbitrary: withContentType('badjson', 'application/json', pathologicalJson) },
    {
      weight: 2,
      arbitrary: withContentType(
        'form',
        'application/x-www-form-urlencoded',
        fc
          .array(fc.tuple(fc.oneof(fc.nat().map((n) => fieldNames()[n % fieldNames().length]!), hostileString), fuzzString), { maxLength: 5 })
          .map((pairs) => Buffer.from(pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'))),
      ),
    },
    { weight: 1, arbitrary: withContentType('bytes', 'application/octet-stream', fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b))) },
  );
}

// ---- valid examples, edited ----

type Example = { form: Record<string, string> } | { json: Record<string, unknown> };

const KEY = Buffer.alloc(256, 7).toString('base64');
const HASH = 'ab'.repeat(32);
/** Right shapes, wrong values: 32 bytes (an authentication secret) and a scheme-2 block at the default cost. */
const SECRET = Buffer.alloc(32, 3).toString('base64');
const KDF_PARAMS = Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), Buffer.alloc(16, 4)]).toString('base64');

const SIGNATURE = Buffer.alloc(256, 9).toString('base64');
const ENVELOPE = Buffer.concat([Buffer.from([1]), Buffer.alloc(1500, 6)]).toString('base64');
const TEAM_MANIFEST = Buffer.from(
  JSON.stringify({
    format: 'sealdrop-folder-manifest',
    version: 1,
    folder_id: 1,
    seq: 2,
    prev: 'ab'.repeat(32),
    signer: { user_id: 1, key: 'cd'.repeat(32) },
    created_at: '2030-01-01T00:00:00.000Z',
    members: [{ user_id: 1, username: 'fuzzadmin', role: 'owner', key: 'cd'.repeat(32) }],
    epochs: [
      { epoch: 1, key: 'ef'.repeat(32), created_at: '2030-01-01T00:00:00.000Z' },
      { epoch: 2, key: '12'.repeat(32), created_at: '2030-01-01T00:00:00.000Z' },
    ],
    current_epoch: 2,
  }),
).toString('base64');

/** Valid bodies, by "METHOD url" as the router lists the route. */
export const EXAMPLE_BODIES: Record<string, (f: Fixtures) => Example> = {
  'POST /api/auth/prelogin': () => ({ json: { username: 'fuzzadmin' } }),
  'POST /api/auth/token': () => ({ form: { username: 'fuzzadmin', auth_secret: SECRET } }),
  'POST /api/auth/token/2fa': () => ({ json: { username: 'fuzzadmin', code: '123456' } }),
  'PUT /api/auth/users/me': () => ({ json: { current_auth_secret: SECRET, username: 'renamed.admin', email: 'a@example.com' } }),
  'POST /api/auth/2fa/enable': () => ({ json: { code: '123456' } }),
  'POST /api/auth/2fa/disable': () => ({ json: { auth_secret: SECRET } }),
  'POST /api/auth/verify-password': () => ({ json: { auth_secret: SECRET } }),
  'POST /api/auth/change-password': () => ({ json: { old_auth_secret: SECRET, new_auth_secret: Buffer.alloc(32, 5).toString('base64'), new_kdf_params: KDF_PARAMS } }),
  'POST /api/auth/upgrade-login': () => ({
    json: { password: 'not the password', auth_secret: SECRET, kdf_params: KDF_PARAMS, private_key: { public_key_spki: KEY, encryptedPrivateKey: Buffer.alloc(48, 1).toString('base64'), kdfSalt: KDF_PARAMS } },
  }),
  'PUT /api/auth/users/me/encrypted-key': () => ({ json: { encryptedPrivateKey: Buffer.alloc(48, 1).toString('base64'), kdfSalt: Buffer.alloc(16, 2).toString('base64') } }),
  'PUT /api/auth/public-key': () => ({ json: { public_key_spki: KEY } }),
  'POST /api/folders/': () => ({ json: folderPayload() }),
  'POST /api/folders': () => ({ json: folderPayload() }),
  'PUT /api/folders/:id': () => ({ json: folderPayload() }),
  'POST /api/folders/files/delete': () => ({ json: { file_ids: [999_999] } }),
  'POST /api/download/links': (f) => ({ json: { file_ids: [Number(f.adminFileId)], password: null, expiration_date: '2099-01-01T00:00:00Z', reencrypted_keys_json: null } }),
  'POST /api/download/links/': (f) => ({ json: { file_ids: [Number(f.adminFileId)], password: 'verifier 123', reencrypted_keys_json: JSON.stringify({ [f.adminFileId]: 'a2V5:aXY=' }) } }),
  'POST /api/download/:link_token/verify-password': () => ({ json: { password: 'not the verifier' } }),
  'POST /api/upload/:link_token/verify-password': () => ({ json: { link_password: 'not the password' } }),
  'POST /api/upload/:link_token/request-code': () => ({ json: { uploader_email: 'a@example.com' } }),
  'POST /api/upload/:link_token/verify-code': () => ({ json: { uploader_email: 'a@example.com', verification_code: '123456' } }),
  'POST /api/upload/:link_token/complete': (f) => ({ json: { uploads: [{ upload_id: f.tusUploadId, file_hash: HASH }] } }),
  // Team folders: shaped right, refused by the manifest checks (a manifest that parses but is not signed).
  'POST /api/folders/:id/team': () => ({
    json: { manifest: TEAM_MANIFEST, signature: SIGNATURE, epoch: { epoch: 1, public_key_spki: KEY }, envelopes: [{ user_id: 1, epoch: 1, envelope: ENVELOPE }], rekeyed_files: [{ file_id: 1, encrypted_key: SIGNATURE }] },
  }),
  'POST /api/folders/:id/team/versions': () => ({
    json: { expected_seq: 1, manifest: TEAM_MANIFEST, signature: SIGNATURE, new_epoch: { epoch: 2, public_key_spki: KEY }, envelopes: [{ user_id: 1, epoch: 2, envelope: ENVELOPE }] },
  }),
  'PUT /api/folders/:id/team/me': () => ({ json: { notify: true } }),
};

function folderPayload(): Record<string, unknown> {
  return {
    title: 'Fuzzed folder',
    description: 'A description',
    require_email_verification: false,
    allowed_emails: ['a@example.com'],
    perform_mime_check: true,
    expires_in_days: 30,
    link_password: 'link password 2',
    is_active: true,
  };
}

const editValue: fc.Arbitrary<JsonNode> = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((s): JsonNode => ({ t: 'raw', v: JSON.stringify(s) })) },
  { weight: 2, arbitrary: withNul.map((s): JsonNode => ({ t: 'raw', v: JSON.stringify(s) })) },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', '0', '-1', '1.5', '1e308', '[]', '{}', '[null]', '{"__proto__":{"x":1}}', '["\\u0000"]', '[1e309]').map((v): JsonNode => ({ t: 'raw', v })) },
);

export type Edit = { op: 'set'; key: number | string; value: JsonNode } | { op: 'delete'; key: number };

/** One to three edits; a numeric key picks one of the example's own fields. */
export const edits: fc.Arbitrary<Edit[]> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.nat(), value: editValue }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.constantFrom('__proto__', 'constructor', 'prototype'), value: editValue }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.nat() }) },
  ),
  { minLength: 1, maxLength: 3 },
);

/** Lone surrogates (which no URL encoding can carry) become U+FFFD, as a browser's encoder does. */
function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** The example of a route with the edits applied, as bytes and content type; undefined without an example. */
export function editedExample(route: string, changes: Edit[], fixtures: Fixtures): { body: Buffer; contentType: string } | undefined {
  const example = EXAMPLE_BODIES[route]?.(fixtures);
  if (!example) return undefined;
  const entries: Array<[string, JsonNode]> = Object.entries('form' in example ? example.form : example.json).map(([k, v]) => [
    k,
    { t: 'raw', v: JSON.stringify(v) },
  ]);
  for (const change of changes) {
    const index = typeof change.key === 'number' ? change.key % entries.length : -1;
    if (change.op === 'delete') entries.splice(index, 1);
    else if (index >= 0) entries[index] = [entries[index]![0], change.value];
    else entries.push([change.key as string, change.value]);
  }
  if ('json' in example) return { body: Buffer.from(jsonText({ t: 'obj', v: entries })), contentType: 'application/json' };
  // A form carries text only: a JSON string's own text, anything else as written.
  const text = (node: JsonNode) => {
    const raw = jsonText(node);
    return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  };
  const form = entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(wellFormed(text(v)))}`).join('&');
  return { body: Buffer.from(form), contentType: 'application/x-www-form-urlencoded' };
}
