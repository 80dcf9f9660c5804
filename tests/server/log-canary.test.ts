// Secrets never reach the logs, the database or the data directory. One whole journey runs over
// real HTTP with unique canary secrets at LOG_LEVEL=trace (every logger path at its most verbose):
// login with 2FA, key save, a folder with link password and e-mail gate, uploads (multipart and
// tus, with the grant cookie and with credentials in the request), a download link with password.
// Then every log line the server wrote, the raw bytes of the database (and its WAL) and every file
// under DATA_DIR are searched for each secret. The outbox message carries the code by design.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/auth/tokens.ts';
import { generateRsaKeyPair, wrapPrivateKeyScheme2 } from '../../server/crypto/keys.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { getBytes } from './files-fixtures.ts';
import { totpAt } from './totp-reference.ts';
import { codeIn, fakeCiphertext, MultipartBody, postMultipart, sha256, tusUploadAll } from './upload-helpers.ts';

const unique = randomBytes(6).toString('hex');
const USERNAME = `canary_admin_${unique}`;
const LOGIN_PASSWORD = `canary-login-password-${unique}`;
const LINK_PASSWORD = `canary-link-password-${unique}`;
const DOWNLOAD_VERIFIER = `canary-download-verifier-${unique}`;
const UPLOADER = `uploader-${unique}@example.com`;

/** Secrets by kind; filled while the journey runs. */
const secrets = {
  loginPassword: [LOGIN_PASSWORD],
  /** What the client sends in place of the login password (the server keeps only its argon2id hash). */
  authSecret: [] as string[],
  linkPassword: [LINK_PASSWORD],
  downloadVerifier: [DOWNLOAD_VERIFIER],
  totpCode: [] as string[],
  verificationCode: [] as string[],
  sessionToken: [] as string[],
  csrfToken: [] as string[],
  grantToken: [] as string[],
  uploadLinkToken: [] as string[],
  downloadLinkToken: [] as string[],
};
type SecretKind = keyof typeof secrets;
const TOKEN_KINDS: SecretKind[] = ['sessionToken', 'csrfToken', 'grantToken', 'uploadLinkToken', 'downloadLinkToken'];

const logLines: string[] = [];
let server: TestServer;
let closed = false;

function remember(kind: SecretKind, value: string | undefined): void {
  if (value !== undefined && value !== '' && !secrets[kind].includes(value)) secrets[kind].push(value);
}

/** Every cookie a client holds is a secret of its kind. */
function collectCookies(client: TestClient): void {
  remember('sessionToken', client.cookies.get('sealdrop_session'));
  remember('csrfToken', client.cookies.get('csrftoken'));
  remember('grantToken', client.cookies.get('sealdrop_upload_grant'));
  remember('grantToken', client.cookies.get('sealdrop_link_grant'));
}

/**
 * What to look for: the whole value, and for tokens also every 16-character piece, so a token
 * logged in part (one character percent-encoded, cut by a separator) is still found.
 */
function needles(kind: SecretKind): string[] {
  const values = secrets[kind];
  if (!TOKEN_KINDS.includes(kind)) return values;
  return values.flatMap((value) => Array.from({ length: value.length - 15 }, (_, i) => value.slice(i, i + 16)));
}

/** The kinds of secret found in `haystack` (text or raw bytes), with what was found. */
function leaks(haystack: string | Buffer, kinds: SecretKind[]): string[] {
  const found: string[] = [];
  for (const kind of kinds) {
    for (const needle of needles(kind)) {
      if (haystack.includes(needle)) {
        found.push(`${kind}: ${needle}`);
        break;
      }
    }
  }
  return found;
}

const ALL_KINDS = Object.keys(secrets) as SecretKind[];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function isOutboxMessage(file: string): boolean {
  return path.dirname(file) === server.config.mail.outboxDir && file.endsWith('.eml');
}

function databaseFiles(): string[] {
  if (server.config.database.kind !== 'sqlite') return [];
  const base = server.config.database.file;
  return [base, `${base}-wal`, `${base}-shm`, `${base}-journal`].filter((file) => fs.existsSync(file));
}

/**
 * Link tokens are in the database by design: the admin lists them again (spec: Folder.link_token,
 * the download-link list's link_token), so the server must be able to give them back
 * (docs/security.md, "Weaknesses we keep"). Everything else, the CSRF token included (it is derived
 * from the session token, never stored), must not be there.
 */
const DATABASE_KINDS = ALL_KINDS.filter((kind) => !['uploadLinkToken', 'downloadLinkToken'].includes(kind));

async function postgresRows(): Promise<string> {
  const client = new pg.Client({ connectionString: server.env.DATABASE_URL });
  await client.connect();
  try {
    const schema = server.env.DATABASE_SCHEMA!;
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'",
      [schema],
    );
    const rows: string[] = [];
    for (const { table_name: table } of tables.rows) {
      const result = await client.query<{ row: string }>(`select row_to_json(t)::text as row from "${schema}"."${table}" t`);
      rows.push(...result.rows.map((r) => `${table}: ${r.row}`));
    }
    return rows.join('\n');
  } finally {
    await client.end();
  }
}

async function journey(): Promise<{ uploadFolderId: number }> {
  // --- Admin: password login, 2FA enabled, key pair saved, password re-entered, logout.
  await server.createUser(USERNAME, LOGIN_PASSWORD);
  const admin = server.client();
  expect((await admin.login(USERNAME, LOGIN_PASSWORD)).status).toBe(200);
  collectCookies(admin);
  const setup = await admin.post('/api/auth/2fa/setup');
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const enableCode = totpAt(secret, server.clock.now());
  remember('totpCode', enableCode);
  expect((await admin.post('/api/auth/2fa/enable', { code: enableCode })).status).toBe(200);
  const pair = generateRsaKeyPair();
  expect((await admin.put('/api/auth/public-key', { public_key_spki: pair.publicKeySpki })).status).toBe(200);
  const wrapped = wrapPrivateKeyScheme2(pair.privateKey, LOGIN_PASSWORD, await admin.prelogin(USERNAME));
  expect((await admin.put('/api/auth/users/me/encrypted-key', wrapped)).status).toBe(200);
  const authSecret = await admin.authSecret(USERNAME, LOGIN_PASSWORD);
  const wrongSecret = await admin.authSecret(USERNAME, `${LOGIN_PASSWORD}-wrong`);
  remember('authSecret', authSecret);
  remember('authSecret', wrongSecret);
  expect((await admin.post('/api/auth/verify-password', { auth_secret: authSecret })).status).toBe(200);
  // A wrong code and a wrong password are logged the same way as the right ones (error paths).
  expect((await admin.post('/api/auth/verify-password', { auth_secret: wrongSecret })).status).toBe(401);
  collectCookies(admin);
  expect((await admin.post('/api/auth/logout')).status).toBe(200);
  collectCookies(admin);

  // --- Admin: login with the authenticator code (three steps later, so the code is a new one).
  server.clock.advance(90_000);
  const passwordStep = await admin.login(USERNAME, LOGIN_PASSWORD);
  expect(passwordStep.body).toEqual({ message: 'OTP code required', username: USERNAME });
  const loginCode = totpAt(secret, server.clock.now());
  remember('totpCode', loginCode);
  expect((await admin.post('/api/auth/token/2fa', { username: USERNAME, code: loginCode })).status).toBe(200);
  collectCookies(admin);

  // --- Admin: a folder with link password, e-mail gate and an allowed list.
  const created = await admin.post('/api/folders/', {
    title: `Canary folder ${unique}`,
    link_password: LINK_PASSWORD,
    require_email_verification: true,
    allowed_emails: [UPLOADER],
  });
  expect(created.status).toBe(201);
  const linkToken = created.body.link_token as string;
  remember('uploadLinkToken', linkToken);
  const linkPath = `/api/upload/${linkToken}`;
  const folder = { linkToken } as Folder;

  // --- Uploader in a browser: gates passed one by one (grant cookie), then tus and multipart.
  const uploader = server.client();
  await uploader.primeCsrf();
  expect((await uploader.get(`${linkPath}/status`)).status).toBe(200);
  expect((await uploader.post(`${linkPath}/verify-password`, { link_password: LINK_PASSWORD })).status).toBe(200);
  collectCookies(uploader);
  expect((await uploader.post(`${linkPath}/request-code`, { uploader_email: UPLOADER })).status).toBe(200);
  const outbox = fs.readdirSync(server.config.mail.outboxDir).filter((name) => name.endsWith('.eml'));
  expect(outbox).toHaveLength(1);
  const code = codeIn(fs.readFileSync(path.join(server.config.mail.outboxDir, outbox[0]!), 'utf8'));
  remember('verificationCode', code);
  const verified = await uploader.post(`${linkPath}/verify-code`, { uploader_email: UPLOADER, verification_code: code });
  expect(verified.status).toBe(200);
  collectCookies(uploader);
  expect((await uploader.get(`${linkPath}/public-key`)).status).toBe(200);

  const tusData = fakeCiphertext(server, 300);
  const { id } = await tusUploadAll(uploader, folder, tusData, { filename: 'resumable.bin', plainSize: 300 });
  const completed = await uploader.post(`${linkPath}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('x') }] });
  expect(completed.status).toBe(200);
  expect(completed.body.successful_files).toHaveLength(1);
  const browserMultipart = await postMultipart(
    uploader,
    linkPath,
    new MultipartBody().files([{ name: 'browser.bin', data: fakeCiphertext(server, 10) }]),
  );
  expect(browserMultipart.status).toBe(200);
  collectCookies(uploader);

  // --- An API client: no grant, the password and the (verified) code in the multipart request.
  const apiClient = server.client();
  await apiClient.primeCsrf();
  const apiUpload = await postMultipart(
    apiClient,
    linkPath,
    new MultipartBody()
      .field('link_password', LINK_PASSWORD)
      .field('uploader_email', UPLOADER)
      .field('verification_code', code)
      .files([{ name: 'api.bin', data: fakeCiphertext(server, 20) }]),
  );
  expect(apiUpload.status).toBe(200);
  expect(apiUpload.body.successful_files).toHaveLength(1);
  collectCookies(apiClient);

  // --- Other spellings of a link URL, and pages and paths no route has.
  const encodedFirst = `%${linkToken.charCodeAt(0).toString(16).toUpperCase()}${linkToken.slice(1)}`;
  for (const odd of [
    `/%61pi/upload/${linkToken}/status`,
    `/api/upload/${encodedFirst}/status`,
    `/api/upload/${linkToken}/no-such-route`,
    `/api//upload/${linkToken}/status`,
    `/upload/${linkToken}`,
  ]) {
    await uploader.get(odd);
  }

  // --- Admin: the files, a download link with password.
  const files = await admin.get(`/api/folders/${created.body.id}/files`);
  expect(files.status).toBe(200);
  expect(files.body).toHaveLength(3);
  const fileIds = (files.body as Array<{ id: number }>).map((file) => file.id);
  const keys = Object.fromEntries(fileIds.map((fileId) => [String(fileId), `${Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), randomBytes(76)]).toString('base64')}:${randomBytes(60).toString('base64')}`]));
  const link = await admin.post('/api/download/links', {
    file_ids: fileIds,
    password: DOWNLOAD_VERIFIER,
    reencrypted_keys_json: JSON.stringify(keys),
    expiration_date: null,
  });
  expect(link.status).toBe(201);
  const downloadToken = link.body.link_token as string;
  remember('downloadLinkToken', downloadToken);
  expect((await admin.get(`/api/download/links/folder/${created.body.id}`)).status).toBe(200);
  collectCookies(admin);

  // --- Recipient: status, password, one file; and the link's page.
  const recipient = server.client();
  await recipient.primeCsrf();
  const downloadPath = `/api/download/${downloadToken}`;
  expect((await recipient.get(`${downloadPath}/status`)).status).toBe(200);
  expect((await recipient.post(`${downloadPath}/verify-password`, { password: `${DOWNLOAD_VERIFIER}-wrong` })).status).toBe(401);
  expect((await recipient.post(`${downloadPath}/verify-password`, { password: DOWNLOAD_VERIFIER })).status).toBe(200);
  collectCookies(recipient);
  expect((await getBytes(recipient, `${downloadPath}/file/${fileIds[0]}`)).status).toBe(200);
  await recipient.get(`/%61pi/download/${downloadToken}/status`);
  await recipient.get(`/download/${downloadToken}`);

  expect((await admin.post('/api/auth/logout')).status).toBe(200);
  collectCookies(admin);
  return { uploadFolderId: created.body.id };
}

beforeAll(async () => {
  server = await startServer({
    env: { LOG_LEVEL: 'trace' },
    logStream: { write: (line: string) => logLines.push(line) },
  });
  await journey();
}, 60_000);

afterAll(async () => {
  if (!closed) await server.close();
});

describe('a whole journey at LOG_LEVEL=trace', () => {
  it('collected every kind of secret (the journey ran)', () => {
    for (const kind of ALL_KINDS) expect(secrets[kind].length, kind).toBeGreaterThan(0);
    // trace lines were written, including the multipart parser's, which carries the headers.
    expect(logLines.some((line) => line.includes('"level":10'))).toBe(true);
    expect(logLines.some((line) => line.includes('Providing options to busboy'))).toBe(true);
  });

  it('logs no password, code, session, grant, CSRF or link token, on any line', () => {
    const offending = logLines.filter((line) => leaks(line, ALL_KINDS).length > 0);
    expect(offending.map((line) => `${leaks(line, ALL_KINDS).join(', ')} in ${line}`)).toEqual([]);
  });

  it('identifies link tokens in logged URLs by a short hash, in every spelling', () => {
    const uploadId = `tok:${sha256Hex(secrets.uploadLinkToken[0]!).slice(0, 8)}`;
    const downloadId = `tok:${sha256Hex(secrets.downloadLinkToken[0]!).slice(0, 8)}`;
    const urls = logLines.flatMap((line) => {
      const url = (JSON.parse(line) as { req?: { url?: string } }).req?.url;
      return url === undefined ? [] : [url];
    });
    expect(urls).toContain(`/api/upload/${uploadId}/status`);
    expect(urls).toContain(`/%61pi/upload/${uploadId}/status`);
    expect(urls).toContain(`/api/download/${downloadId}/verify-password`);
    expect(urls).toContain(`/download/${downloadId}`);
  });

  it('redacts the cookie and CSRF headers wherever a logger puts them', () => {
    const busboy = logLines.find((line) => line.includes('Providing options to busboy'))!;
    const headers = (JSON.parse(busboy) as { busboyOptions: { headers: Record<string, string> } }).busboyOptions.headers;
    expect(headers.cookie).toBe('[redacted]');
    expect(headers['x-csrftoken']).toBe('[redacted]');
  });

  it('keeps no password, code, session or grant token in the database', async () => {
    if (usingPostgres) {
      const rows = await postgresRows();
      // The search sees the data: the admin's name and the link token (kept by design) are there.
      expect(rows).toContain(USERNAME);
      expect(rows).toContain(secrets.uploadLinkToken[0]!);
      expect(leaks(rows, DATABASE_KINDS)).toEqual([]);
      return;
    }
    const files = databaseFiles();
    const bytes = Buffer.concat(files.map((file) => fs.readFileSync(file)));
    expect(bytes.includes(USERNAME)).toBe(true);
    expect(bytes.includes(secrets.uploadLinkToken[0]!)).toBe(true);
    for (const file of files) expect(leaks(fs.readFileSync(file), DATABASE_KINDS), file).toEqual([]);
  });

  it('writes no secret to any other file under DATA_DIR; the outbox message holds only its code', () => {
    const dbFiles = new Set(databaseFiles());
    const others = filesUnder(server.config.dataDir).filter((file) => !dbFiles.has(file));
    expect(others.some(isOutboxMessage)).toBe(true);
    for (const file of others) {
      const kinds = isOutboxMessage(file) ? ALL_KINDS.filter((kind) => kind !== 'verificationCode') : ALL_KINDS;
      expect(leaks(fs.readFileSync(file), kinds), file).toEqual([]);
    }
  });

  it('after the server closed (WAL checkpointed): no secret in its files, nor in what closing logged', async () => {
    await server.app.close();
    if (!usingPostgres) {
      for (const file of databaseFiles()) expect(leaks(fs.readFileSync(file), DATABASE_KINDS), file).toEqual([]);
      const dbFiles = new Set(databaseFiles());
      for (const file of filesUnder(server.config.dataDir).filter((f) => !dbFiles.has(f) && !isOutboxMessage(f))) {
        expect(leaks(fs.readFileSync(file), ALL_KINDS), file).toEqual([]);
      }
    }
    // Closing logs too.
    expect(logLines.filter((line) => leaks(line, ALL_KINDS).length > 0)).toEqual([]);
    await server.close();
    closed = true;
  });
});
