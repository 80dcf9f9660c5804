// Authentication and CSRF follow the matched route, whatever the spelling of its URL. Every API
// route (read from the app's router) is called by its canonical path and by odd spellings of it
// (percent-encoded, doubled or dot segments, case, encoded slashes, trailing dots, `;params`,
// overlong UTF-8, NUL, very long), with and without a session and the CSRF header. None may
// answer 5xx, reach a handler without its checks, or answer other than the canonical path does
// unless with a 4xx. Also: the answers refused before routing or by Node's HTTP parser are
// {detail} JSON, API answers are never cached, and no page may be framed.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfTokenForSession, newToken, sha256Hex } from '../../server/auth/tokens.ts';
import type { Folder, User } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from './harness.ts';
import { createFolderOf, fakeCiphertext, MultipartBody } from './upload-helpers.ts';

let server: TestServer;
let admin: User;

beforeAll(async () => {
  server = await startServer({
    setup: (app) => {
      // Outside /api (whose catch-all route takes any path under it), the only way to reach the
      // router's own 414 for a parameter longer than maxParamLength.
      app.get('/test/param/:value', async () => ({ ok: true }));
    },
  });
  admin = await server.createUser('admin', 'correct horse');
});
afterAll(() => server.close());

// --- raw HTTP: fetch would normalise `.`/`..` segments and refuse some spellings ---

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(method: string, rawPath: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawAnswer> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: rawPath, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Writes bytes to a fresh socket and returns everything the server answers before closing it. */
function sendBytes(bytes: string): Promise<string> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(bytes);
  });
}

function parseRawAnswer(text: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, headers: head.toLowerCase(), body: JSON.parse(body) };
}

// --- who is calling ---

interface Caller {
  name: string;
  signedIn: boolean;
  csrfHeader: boolean;
  headers(): Promise<Record<string, string>>;
}

/** A live session made through the repository (one per request: logout ends it). */
async function sessionHeaders(csrfHeader: boolean): Promise<Record<string, string>> {
  const token = newToken();
  const csrf = csrfTokenForSession(token);
  const now = server.clock.now();
  await server.app.repos.sessions.create({ tokenHash: sha256Hex(token), userId: admin.id, expiresAt: now + 3_600_000, now });
  return { cookie: `sealdrop_session=${token}; csrftoken=${csrf}`, ...(csrfHeader ? { 'x-csrftoken': csrf } : {}) };
}

function anonymousHeaders(csrfHeader: boolean, staleSession = false): Record<string, string> {
  const csrf = newToken();
  const session = staleSession ? `sealdrop_session=${newToken()}; ` : '';
  return { cookie: `${session}csrftoken=${csrf}`, ...(csrfHeader ? { 'x-csrftoken': csrf } : {}) };
}

const CALLERS: Caller[] = [
  { name: 'anonymous', signedIn: false, csrfHeader: true, headers: async () => anonymousHeaders(true) },
  { name: 'anonymous without CSRF header', signedIn: false, csrfHeader: false, headers: async () => anonymousHeaders(false) },
  { name: 'expired session', signedIn: false, csrfHeader: true, headers: async () => anonymousHeaders(true, true) },
  { name: 'signed in', signedIn: true, csrfHeader: true, headers: () => sessionHeaders(true) },
  { name: 'signed in without CSRF header', signedIn: true, csrfHeader: false, headers: () => sessionHeaders(false) },
];

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// --- the routes, read from the router ---

interface Route {
  method: string;
  url: string;
}

/** Every method and URL pattern the app routes (parsed from printRoutes, each checked with hasRoute). */
function appRoutes(): Route[] {
  const routes: Route[] = [];
  const ancestors: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    ancestors.length = depth;
    ancestors.push(match[2]!);
    const url = ancestors.join('');
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes.filter((route) => !route.url.includes('*') && route.url.startsWith('/api'));
}

/** The spec's anonymous routes (docs/api.md; product spec section 7): everything else needs a session. */
function isPublic(route: Route): boolean {
  if (route.method === 'POST' && ['/api/auth/prelogin', '/api/auth/token', '/api/auth/token/2fa', '/api/auth/logout'].includes(route.url)) return true;
  // A passkey signs in without a username: its assertion is the credential (docs/api.md, "Passkeys").
  if (route.method === 'POST' && ['/api/auth/passkeys/sign-in/options', '/api/auth/passkeys/sign-in'].includes(route.url)) return true;
  // An invitee has no account yet: the invitation's token is the capability.
  if (route.method === 'POST' && ['/api/invitations/open', '/api/invitations/accept'].includes(route.url)) return true;
  if ((route.method === 'GET' || route.method === 'HEAD') && ['/api/openapi.json', '/api/docs', '/api/docs/:asset'].includes(route.url)) return true;
  // Single sign-on happens before there is a session: what the sign-in page offers, the start and
  // the provider's callback (the flow cookie and the provider's code are the credentials).
  if ((route.method === 'GET' || route.method === 'HEAD') && ['/api/auth/sso', '/api/auth/sso/start', '/api/auth/sso/callback'].includes(route.url)) return true;
  return route.url.startsWith('/api/upload/:link_token') || route.url.startsWith('/api/download/:link_token');
}

// --- what the parameters stand for: real records, so a request that gets through is answered ---

interface Fixtures {
  folder: Folder;
  fileId: number;
  linkToken: string;
}

async function createFixtures(): Promise<Fixtures> {
  const now = server.clock.now();
  const folder = await createFolderOf(server, admin.id, { title: 'Spellings', performMimeCheck: false });
  const blobKey = `spellings/${folder.id}/${randomBytes(4).toString('hex')}`;
  const content = randomBytes(64);
  await server.app.blobs.put(blobKey, Readable.from([content]));
  const file = await server.app.repos.files.create({
    folderId: folder.id,
    originalFilename: 'a.bin',
    storedFilename: 'upload/a.bin',
    relativePath: '.',
    fileSize: content.length - 16,
    fileHash: randomBytes(32).toString('hex'),
    encryptedKey: randomBytes(256).toString('base64'),
    encryptionIv: randomBytes(12).toString('base64'),
    blobKey,
    uploadTime: now,
  });
  const link = await server.app.repos.downloadLinks.create({
    linkToken: newToken(),
    folderId: folder.id,
    ownerId: admin.id,
    verifierHash: null,
    reencryptedKeysJson: null,
    expirationDate: null,
    creationDate: now,
    fileIds: [file.id],
  });
  return { folder, fileId: file.id, linkToken: link.linkToken };
}

function paramValue(url: string, name: string, fixtures: Fixtures): string {
  switch (name) {
    case 'link_token':
      return url.startsWith('/api/upload/') ? fixtures.folder.linkToken : fixtures.linkToken;
    case 'id':
      return url.startsWith('/api/download/links/') ? fixtures.linkToken : String(fixtures.folder.id);
    case 'folderId':
      return String(fixtures.folder.id);
    case 'fileId':
      return String(fixtures.fileId);
    case 'upload_id':
    case 'uploadId':
      return 'a'.repeat(32);
    case 'asset':
      return 'start.js';
    case 'accountId':
      return String(fixtures.folder.ownerId);
    case 'invitationId':
      return '1';
    // A well-formed id no device or request has: a request that gets past the checks is answered 404.
    case 'deviceId':
    case 'approvalId':
      return '0f6c2a4e-1b2d-4c3e-8f4a-5b6c7d8e9f00';
    default:
      throw new Error(`no value for :${name} in ${url}`);
  }
}

function fill(url: string, fixtures: Fixtures): string {
  return url.replace(/:([A-Za-z_]+)/g, (_whole, name: string) => paramValue(url, name, fixtures));
}

// --- the spellings ---

function percentEncodeFirst(segment: string): string {
  const code = segment.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return `%${code}${segment.slice(1)}`;
}

interface Spelling {
  rawPath: string;
  /** The router decodes it to the canonical path and value: it must be answered exactly alike. */
  same: boolean;
}

/** Odd ways to write `canonical` (a concrete path such as /api/auth/users/me). */
function spellingsOf(canonical: string): Spelling[] {
  const [, ...segments] = canonical.split('/');
  const rest = segments.slice(1).join('/');
  const last = segments[segments.length - 1]!;
  const butLast = canonical.slice(0, canonical.length - last.length);
  const same = [`/%61pi/${rest}`, `/%61%70%69/${rest}`, `${canonical}?x=1`];
  if (last !== '') same.push(`${butLast}${percentEncodeFirst(last)}`);
  const odd = [
    `/%2561pi/${rest}`,
    `//api/${rest}`,
    `/api//${rest}`,
    `/api/./${rest}`,
    `/./api/${rest}`,
    `/api/../api/${rest}`,
    `/x/../api/${rest}`,
    `/api/x/../${rest}`,
    `/API/${rest}`,
    `/Api/${rest}`,
    `${butLast}${last.toUpperCase()}`,
    `/api%2F${rest}`,
    `/api%2f${rest}`,
    `/api%5C${rest}`,
    `/api\\${rest}`,
    `${canonical}/`,
    `${canonical}.`,
    `${canonical}%2E`,
    `/api./${rest}`,
    `${canonical};x`,
    `${canonical};jsessionid=1`,
    `/api;x/${rest}`,
    `${canonical}%00`,
    `/api%00/${rest}`,
    `${canonical}%c0%af`,
    `/api%c0%af${rest}`,
    `/%c0%ae/api/${rest}`,
    `${canonical}%`,
    `${canonical}/${'a'.repeat(3000)}`,
    `/api/${'a'.repeat(3000)}/${rest}`,
  ];
  return [...same.map((rawPath) => ({ rawPath, same: true })), ...odd.map((rawPath) => ({ rawPath, same: false }))];
}

/** Odd values for each path parameter of the route (the same route with another value). */
function parameterSpellings(route: Route, fixtures: Fixtures): Spelling[] {
  const spellings: Spelling[] = [];
  for (const [, name] of route.url.matchAll(/:([A-Za-z_]+)/g)) {
    const value = paramValue(route.url, name!, fixtures);
    const withValue = (odd: string) => fill(route.url.replace(`:${name}`, odd), fixtures);
    spellings.push({ rawPath: withValue(percentEncodeFirst(value)), same: true });
    for (const odd of [
      `${value}%00`,
      '%00',
      `${value}%2F..%2F`,
      `..%2F${value}`,
      `${value}%c0%af`,
      `${value};x`,
      `${value}%20`,
      'x'.repeat(150),
      encodeURIComponent('\u202e\ufeff'),
    ]) {
      spellings.push({ rawPath: withValue(odd), same: false });
    }
  }
  return spellings;
}

function describeAnswer(caller: Caller, method: string, rawPath: string, answer: RawAnswer): string {
  return `${caller.name}: ${method} ${rawPath.slice(0, 120)} -> ${answer.status} ${answer.body.slice(0, 120)}`;
}

function errorOf(answer: RawAnswer): { detail?: unknown; code?: unknown } | undefined {
  if (!answer.body || !(answer.headers['content-type'] ?? '').includes('application/json')) return undefined;
  return JSON.parse(answer.body) as { detail?: unknown; code?: unknown };
}

/**
 * How a caller the route's checks refuse may be answered: 401 or 403 from the checks, or what the
 * router says before any route runs (404 Not Found, 400 for an undecodable URL, 414, 431). Never
 * 2xx/3xx, and never 422, 404 from a handler or the like: those come after the checks.
 */
function refusedProperly(answer: RawAnswer): boolean {
  if ([401, 403, 414, 431].includes(answer.status)) return true;
  const error = errorOf(answer);
  if (answer.status === 404) return error === undefined ? answer.body === '' : error.detail === 'Not Found' && error.code === 'NOT_FOUND';
  if (answer.status === 400) return error === undefined ? answer.body === '' : error.detail === 'Bad Request' && error.code === 'BAD_REQUEST';
  return false;
}

/** What is wrong with the answer to a spelling, if anything. */
function problemWith(answer: RawAnswer, canonicalStatus: number, mayPass: boolean, same: boolean): string | null {
  if (answer.status >= 500) return '5xx';
  if (!mayPass && !refusedProperly(answer)) return 'got past checks that refuse this caller';
  if (same && answer.status !== canonicalStatus) return `answered unlike the canonical path (${canonicalStatus})`;
  if (answer.status !== canonicalStatus && answer.status < 400) {
    return `answered ${answer.status} where the canonical path answers ${canonicalStatus}`;
  }
  return null;
}

describe('every API route, every spelling', () => {
  it('reads the routes from the app', () => {
    const routes = appRoutes();
    for (const route of routes) expect(server.app.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual({ method: 'GET', url: '/api/auth/users/me' });
    expect(routes).toContainEqual({ method: 'POST', url: '/api/upload/:link_token' });
    expect(routes).toContainEqual({ method: 'PATCH', url: '/api/upload/:link_token/tus/:upload_id' });
  });

  it('never answers 5xx, never lets a request past a check it skipped, and answers like the canonical path or with 4xx', async () => {
    const failures: string[] = [];
    let requests = 0;
    const shared = await createFixtures();

    for (const route of appRoutes()) {
      const mutating = MUTATING.has(route.method);
      const needsUser = !isPublic(route);
      // A DELETE gets records of its own for every request, so it cannot remove what others use.
      const fixtures = async () => (route.method === 'DELETE' ? createFixtures() : shared);
      const spellings = (f: Fixtures) => [...spellingsOf(fill(route.url, f)), ...parameterSpellings(route, f)];
      const count = spellings(shared).length;

      // The CSRF header only matters to mutating methods. The callers of one route run side by
      // side, each one's requests in order.
      const callers = CALLERS.filter((caller) => mutating || caller.csrfHeader);
      await Promise.all(
        callers.map(async (caller) => {
          const call = async (rawPath: string) => {
            requests += 1;
            return send(route.method, rawPath, await caller.headers());
          };
          const mayPass = (caller.signedIn || !needsUser) && (caller.csrfHeader || !mutating);

          const canonicalPath = fill(route.url, await fixtures());
          const canonical = await call(canonicalPath);
          const expected = mutating && !caller.csrfHeader ? 403 : !mayPass ? 401 : undefined;
          if (canonical.status >= 500 || (expected !== undefined && canonical.status !== expected)) {
            failures.push(`canonical path, expected ${expected ?? 'no 5xx'}: ${describeAnswer(caller, route.method, canonicalPath, canonical)}`);
          }

          for (let index = 0; index < count; index += 1) {
            const { rawPath, same } = spellings(await fixtures())[index]!;
            const answer = await call(rawPath);
            const problem = problemWith(answer, canonical.status, mayPass, same);
            if (problem) failures.push(`${problem}: ${describeAnswer(caller, route.method, rawPath, answer)}`);
          }
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(4000);
  }, 300_000);
});

describe('the reproductions', () => {
  it('GET /%61pi/auth/users/me answers like /api/auth/users/me: 401 anonymous, "Session expired" for a dead session, the user when signed in', async () => {
    const anonymous = await send('GET', '/%61pi/auth/users/me');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });

    const expired = await send('GET', '/%61pi/auth/users/me', { cookie: `sealdrop_session=${newToken()}` });
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body)).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });

    const headers = await sessionHeaders(false);
    const signedIn = await send('GET', '/%61pi/auth/users/me', headers);
    expect(signedIn.status).toBe(200);
    expect(JSON.parse(signedIn.body)).toEqual(JSON.parse((await send('GET', '/api/auth/users/me', headers)).body));
  });

  it('POST /%61pi/auth/logout with a session cookie and no x-csrftoken is refused, and the session lives on', async () => {
    const headers = await sessionHeaders(false);
    const response = await send('POST', '/%61pi/auth/logout', headers);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ detail: 'CSRF validation failed', code: 'CSRF_FAILED' });
    expect((await send('GET', '/api/auth/users/me', headers)).status).toBe(200);
  });

  it('a multipart upload to /%61pi/upload/{token} without the CSRF header is refused and stores nothing', async () => {
    const { folder } = await createFixtures();
    const before = await server.app.repos.files.listForFolder(folder.id);
    const body = new MultipartBody().files([{ name: 'sneaky.bin', data: fakeCiphertext(server, 10) }]);
    const headers = { ...anonymousHeaders(false), 'content-type': body.contentType };
    const response = await send('POST', `/%61pi/upload/${folder.linkToken}`, headers, body.build());
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ detail: 'CSRF validation failed', code: 'CSRF_FAILED' });
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual(before);

    // With the header the same spelling is the same route, and the upload goes through its checks.
    const allowed = await send('POST', `/%61pi/upload/${folder.linkToken}`, { ...anonymousHeaders(true), 'content-type': body.contentType }, body.build());
    expect(allowed.status).toBe(200);
    expect(await server.app.repos.files.listForFolder(folder.id)).toHaveLength(before.length + 1);
  });

  it('every authenticated route answers 401, not 500, through /%61pi', async () => {
    const fixtures = await createFixtures();
    for (const route of appRoutes().filter((r) => !isPublic(r))) {
      const rawPath = fill(route.url, fixtures).replace(/^\/api/, '/%61pi');
      const response = await send(route.method, rawPath, anonymousHeaders(true));
      expect(response.status, `${route.method} ${rawPath}`).toBe(401);
    }
  });
});

describe('answers around the routes', () => {
  it('forbids framing: X-Frame-Options DENY, matching frame-ancestors none', async () => {
    const response = await send('GET', '/api/auth/users/me');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('marks API answers not to be stored: a signed-in JSON answer, an error, an unknown API path', async () => {
    const headers = await sessionHeaders(true);
    const me = await send('GET', '/api/auth/users/me', headers);
    expect(me.status).toBe(200);
    expect(me.headers['content-type']).toContain('application/json');
    expect(me.headers['cache-control']).toBe('no-store');
    const folders = await send('GET', '/api/folders/', headers);
    expect(folders.status).toBe(200);
    expect(folders.headers['cache-control']).toBe('no-store');
    expect((await send('GET', '/api/auth/users/me')).headers['cache-control']).toBe('no-store');
    expect((await send('GET', '/api/no/such/route')).headers['cache-control']).toBe('no-store');
  });

  it('answers a path parameter over the router limit with 414 {detail}', async () => {
    const response = await send('GET', `/test/param/${'x'.repeat(200)}`);
    expect(response.status).toBe(414);
    expect(JSON.parse(response.body)).toEqual({ detail: 'URI Too Long', code: 'URI_TOO_LONG' });
    // The path is not echoed: it may hold a link token.
    expect(response.body).not.toContain('xxxx');
  });

  it('answers a URL the router cannot decode with 400 {detail}', async () => {
    const token = newToken();
    const response = await send('GET', `/api/upload/${token}%c0%af/status`);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Bad Request', code: 'BAD_REQUEST' });
    expect(response.body).not.toContain(token);
  });

  it('answers oversized headers and an oversized URL with 431 {detail}', async () => {
    const headers = parseRawAnswer(
      await sendBytes(`GET /api/auth/users/me HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(headers.status).toBe(431);
    expect(headers.body).toEqual({ detail: 'Request Header Fields Too Large', code: 'HEADERS_TOO_LARGE' });
    expect(headers.headers).toContain('content-type: application/json');

    const url = parseRawAnswer(await sendBytes(`GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(url.status).toBe(431);
    expect(url.body).toEqual({ detail: 'Request Header Fields Too Large', code: 'HEADERS_TOO_LARGE' });
  });

  it('answers an Expect header it cannot meet with 417 {detail}', async () => {
    const answer = parseRawAnswer(
      await sendBytes('GET /api/auth/users/me HTTP/1.1\r\nHost: x\r\nExpect: nonsense\r\n\r\n'),
    );
    expect(answer.status).toBe(417);
    expect(answer.body).toEqual({ detail: 'Expectation Failed', code: 'EXPECTATION_FAILED' });
  });

  it('answers what the HTTP parser refuses (bad Content-Length, a malformed request line) with 400 {detail}', async () => {
    const badLength = parseRawAnswer(
      await sendBytes('POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}'),
    );
    expect(badLength.status).toBe(400);
    expect(badLength.body).toEqual({ detail: 'Bad Request', code: 'BAD_REQUEST' });

    const garbage = parseRawAnswer(await sendBytes('NOT HTTP AT ALL\r\n\r\n'));
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ detail: 'Bad Request', code: 'BAD_REQUEST' });
  });

  it('answers malformed JSON and a body shorter than its Content-Length with 400 {detail}', async () => {
    const headers: Record<string, string> = { ...anonymousHeaders(true), 'content-type': 'application/json' };
    const malformed = await send('POST', '/api/auth/token', headers, Buffer.from('{"username":'));
    expect(malformed.status).toBe(400);
    expect(typeof JSON.parse(malformed.body).detail).toBe('string');
    expect(JSON.parse(malformed.body).code).toBe('BAD_REQUEST');
    expect(malformed.headers['cache-control']).toBe('no-store');

    const short = parseRawAnswer(
      await sendBytes(
        'POST /api/auth/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n' +
          `Cookie: ${headers.cookie}\r\nX-CSRFToken: ${headers['x-csrftoken']}\r\nContent-Length: 2\r\n\r\n{"a":1}`,
      ),
    );
    expect(short.status).toBe(400);
    expect(typeof (short.body as { detail: unknown }).detail).toBe('string');
    expect((short.body as { code: unknown }).code).toBe('BAD_REQUEST');
  });
});

describe('with the built app', () => {
  let withApp: TestServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-dist-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root"></div>');
    withApp = await startServer({ env: { STATIC_DIR: staticDir } });
  });
  afterAll(async () => {
    await withApp.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('answers unknown paths that spell /api some other way with the JSON 404, not the app page', async () => {
    const { port } = new URL(withApp.baseUrl);
    const get = (rawPath: string) =>
      new Promise<RawAnswer>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: rawPath, agent: false }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
          })
          .on('error', reject);
      });
    for (const rawPath of [
      '/api',
      '/api/',
      '/api/nothing',
      '/API/auth/users/me',
      '/Api/nothing',
      '//api/auth/users/me',
      '/%2561pi/auth/users/me',
      '/x/../api/auth/users/me',
      '/./api/nothing',
      '/api;x/auth/users/me',
      '/api./auth/users/me',
      '/api%2Fauth/users/me',
      '/api\\auth/users/me',
      '/%41%50%49/auth/users/me',
    ]) {
      const response = await get(rawPath);
      expect(response.status, rawPath).toBe(404);
      expect(JSON.parse(response.body), rawPath).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    }
    const page = await get('/login');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });
});
