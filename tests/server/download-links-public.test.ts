// Download links, the recipient's side, over real HTTP without an account: status, password
// verification (wrong password, rate limit, grant cookie), the ciphertext download (only the
// link's files, ranges, no file key), and what unknown, expired and deleted links answer.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import { cookieAttributes, type TestClient } from './http-client.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';

let server: TestServer;
let alice: TestClient;

beforeAll(async () => {
  server = await startServer({
    env: { RATE_LIMIT_ACCOUNT_FAILURES: '3', RATE_LIMIT_IP_FAILURES: '20', RATE_LIMIT_WINDOW_MINUTES: '15' },
  });
  alice = (await signedInClient(server, 'alice')).client;
});
afterAll(() => server.close());

const VERIFIER = 'Sonnenblume-Wasserfall26-417-verifier';
// A wrapped link key as the browser makes it: a scheme-2 KDF block (26 bytes), then iv || sealed link key (60).
const KDF_BLOCK = Buffer.concat([Buffer.from([2, 0, 1, 0, 0, 0, 0, 0, 3, 1]), randomBytes(16)]);
const wrappedKey = () => `${Buffer.concat([KDF_BLOCK, randomBytes(60)]).toString('base64')}:${randomBytes(60).toString('base64')}`;

interface Shared {
  token: string;
  folderId: number;
  files: SeededFile[];
  /** A file of the same folder that the link does not share. */
  outside: SeededFile;
  keys: Record<string, string>;
}

async function share(options: { password?: boolean; expiresInMs?: number; count?: number } = {}): Promise<Shared> {
  const folder = await createFolder(alice, `Shared ${randomBytes(3).toString('hex')}`);
  const files: SeededFile[] = [];
  for (let i = 0; i < (options.count ?? 2); i++) {
    files.push(await seedFile(server, folder.id, { name: `report-${i}.pdf`, content: randomBytes(1000 + i) }));
  }
  const outside = await seedFile(server, folder.id, { name: 'private.pdf' });
  const keys = Object.fromEntries(files.map((file) => [String(file.id), wrappedKey()]));
  const response = await alice.post('/api/download/links', {
    file_ids: files.map((file) => file.id),
    password: options.password ? VERIFIER : null,
    reencrypted_keys_json: options.password ? JSON.stringify(keys) : null,
    expiration_date: options.expiresInMs ? new Date(server.clock.now() + options.expiresInMs).toISOString() : null,
  });
  expect(response.status).toBe(201);
  return { token: response.body.link_token, folderId: folder.id, files, outside, keys };
}

async function recipient(): Promise<TestClient> {
  const client = server.client();
  await client.primeCsrf();
  return client;
}

// Each password test starts in a fresh rate-limit window (well within the admin's session).
function nextWindow(): void {
  server.clock.advance(16 * 60_000);
}

describe('GET /api/download/{link_token}/status', () => {
  it('lists only the link\'s files and says whether a password is needed', async () => {
    const open = await share();
    const status = await (await recipient()).get(`/api/download/${open.token}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      requires_password: false,
      files: open.files.map((file) => ({
        id: file.id,
        original_filename: file.name,
        file_size: file.content.length - 16,
        encryption_iv: file.encryptionIv,
      })),
    });

    const locked = await share({ password: true });
    const lockedStatus = await (await recipient()).get(`/api/download/${locked.token}/status`);
    expect(lockedStatus.body.requires_password).toBe(true);
    // The KDF block that starts every wrapped key, so the recipient can derive the verifier.
    const firstWrapped = Object.values(locked.keys)[0]!.split(':')[0]!;
    expect(lockedStatus.body.kdf_params).toBe(Buffer.from(firstWrapped, 'base64').subarray(0, 26).toString('base64'));
    expect(lockedStatus.body.kdf_params).toBe(KDF_BLOCK.toString('base64'));
  });

  it('answers 404 "Download link not found." for an unknown token', async () => {
    const client = await recipient();
    for (const token of ['x'.repeat(43), 'short', 'y'.repeat(99)]) {
      const response = await client.get(`/api/download/${token}/status`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Download link not found.', code: 'LINK_NOT_FOUND' });
    }
  });
});

describe('a link without password', () => {
  it('serves the link\'s files without any key, with the IV and ranges', async () => {
    const open = await share();
    const client = await recipient();
    const file = open.files[1]!;
    const response = await getBytes(client, `/api/download/${open.token}/file/${file.id}`);
    expect(response.status).toBe(200);
    expect(response.body.equals(file.content)).toBe(true);
    expect(response.headers.get('x-encryption-iv')).toBe(file.encryptionIv);
    expect(response.headers.get('x-file-size')).toBe(String(file.content.length - 16));
    expect(response.headers.get('x-encrypted-key')).toBeNull();
    expect(response.headers.get('content-disposition')).toContain(`filename="${file.name}"`);
    expect(response.headers.get('cache-control')).toBe('no-store');

    const part = await getBytes(client, `/api/download/${open.token}/file/${file.id}`, { range: 'bytes=1000-' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1000/1001`);
    expect(part.body.equals(file.content.subarray(1000))).toBe(true);
    const beyond = await getBytes(client, `/api/download/${open.token}/file/${file.id}`, { range: 'bytes=2000-' });
    expect(beyond.status).toBe(416);
  });

  it('answers 404 for a file that is not in the link, even one of the same folder', async () => {
    const open = await share();
    const other = await share();
    const client = await recipient();
    for (const id of [open.outside.id, other.files[0]!.id, 987654]) {
      const response = await getBytes(client, `/api/download/${open.token}/file/${id}`);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body.toString())).toEqual({ detail: 'File not found', code: 'FILE_NOT_FOUND' });
    }
    expect((await getBytes(client, `/api/download/${open.token}/file/abc`)).status).toBe(422);
  });

  it('does not change the admin\'s "last downloaded"', async () => {
    const open = await share();
    const client = await recipient();
    expect((await getBytes(client, `/api/download/${open.token}/file/${open.files[0]!.id}`)).status).toBe(200);
    await server.settled();
    const list = await alice.get(`/api/folders/${open.folderId}/files`);
    expect(list.body.every((file: { last_downloaded_admin: string | null }) => file.last_downloaded_admin === null)).toBe(true);
  });

  it('has no password to verify', async () => {
    const open = await share();
    const response = await (await recipient()).post(`/api/download/${open.token}/verify-password`, { password: VERIFIER });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'This link is not password protected.', code: 'LINK_WITHOUT_PASSWORD' });
  });
});

describe('a password-protected link', () => {
  it('returns the wrapped keys and a grant cookie for the right password, and then serves files', async () => {
    nextWindow();
    const locked = await share({ password: true });
    const client = await recipient();
    const file = locked.files[0]!;

    const before = await getBytes(client, `/api/download/${locked.token}/file/${file.id}`);
    expect(before.status).toBe(401);
    expect(JSON.parse(before.body.toString())).toEqual({ detail: 'Password required', code: 'LINK_PASSWORD_REQUIRED' });

    const response = await client.post(`/api/download/${locked.token}/verify-password`, { password: VERIFIER });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reencrypted_keys: locked.keys });
    const cookie = cookieAttributes(response.setCookies, 'sealdrop_link_grant')!;
    expect(cookie.get('path')).toBe(`/api/download/${locked.token}`);
    expect(cookie.has('httponly')).toBe(true);
    expect(cookie.get('samesite')).toBe('Strict');
    expect(Number(cookie.get('max-age'))).toBe(24 * 3600);

    const after = await getBytes(client, `/api/download/${locked.token}/file/${file.id}`);
    expect(after.status).toBe(200);
    expect(after.body.equals(file.content)).toBe(true);
    expect(after.headers.get('x-encryption-iv')).toBe(file.encryptionIv);
    expect(after.headers.get('x-encrypted-key')).toBeNull();
    expect((await getBytes(client, `/api/download/${locked.token}/file/${locked.outside.id}`)).status).toBe(404);
  });

  it('answers 401 "Incorrect password" for a wrong password, and a grant does not open another link', async () => {
    nextWindow();
    const first = await share({ password: true });
    const second = await share({ password: true });
    const client = await recipient();
    const wrong = await client.post(`/api/download/${first.token}/verify-password`, { password: 'not-the-verifier' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });
    expect(wrong.setCookies.some((line) => line.startsWith('sealdrop_link_grant='))).toBe(false);

    expect((await client.post(`/api/download/${first.token}/verify-password`, { password: VERIFIER })).status).toBe(200);
    // The browser would not send the cookie to the other link's path; send it anyway.
    const grant = client.cookies.get('sealdrop_link_grant')!;
    const other = await getBytes(client, `/api/download/${second.token}/file/${second.files[0]!.id}`, {
      cookie: `sealdrop_link_grant=${grant}`,
    });
    expect(other.status).toBe(401);
    expect((await getBytes(client, `/api/download/${first.token}/file/${first.files[0]!.id}`, {
      cookie: 'sealdrop_link_grant=forged',
    })).status).toBe(401);
  });

  it('limits wrong passwords per link and IP: 429 even for the right one until the window ends', async () => {
    nextWindow();
    const locked = await share({ password: true });
    const client = await recipient();
    for (let i = 0; i < 3; i++) {
      expect((await client.post(`/api/download/${locked.token}/verify-password`, { password: `wrong-${i}-password` })).status).toBe(401);
    }
    const blocked = await client.post(`/api/download/${locked.token}/verify-password`, { password: VERIFIER });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: 'Too many failed password attempts. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    expect(Number(blocked.headers.get('retry-after'))).toBe(15 * 60);

    // Another link from the same IP is not blocked by this link's count.
    const other = await share({ password: true });
    expect((await client.post(`/api/download/${other.token}/verify-password`, { password: VERIFIER })).status).toBe(200);

    server.clock.advance(15 * 60_000 + 1000);
    expect((await client.post(`/api/download/${locked.token}/verify-password`, { password: VERIFIER })).status).toBe(200);
  });

  it('returns keys only for files still in the link', async () => {
    nextWindow();
    const locked = await share({ password: true, count: 3 });
    expect((await alice.post('/api/folders/files/delete', { file_ids: [locked.files[1]!.id] })).status).toBe(200);
    const client = await recipient();
    const response = await client.post(`/api/download/${locked.token}/verify-password`, { password: VERIFIER });
    const { [String(locked.files[1]!.id)]: _removed, ...remaining } = locked.keys;
    expect(response.body).toEqual({ reencrypted_keys: remaining });
    expect((await client.get(`/api/download/${locked.token}/status`)).body.files).toHaveLength(2);
  });

  it('needs the CSRF header and a password in the body', async () => {
    const locked = await share({ password: true });
    const client = await recipient();
    expect((await client.post(`/api/download/${locked.token}/verify-password`, { password: VERIFIER }, { csrf: false })).status).toBe(403);
    expect((await client.post(`/api/download/${locked.token}/verify-password`, {})).status).toBe(422);
  });
});

describe('expired, deleted and unknown links', () => {
  it('answers 410 "This link has expired." on every route once the expiry has passed', async () => {
    const expiring = await share({ password: true, expiresInMs: 3_600_000 });
    const client = await recipient();
    const file = expiring.files[0]!;
    expect((await client.post(`/api/download/${expiring.token}/verify-password`, { password: VERIFIER })).status).toBe(200);
    // The grant lives no longer than the link.
    const grant = cookieAttributes(
      (await client.post(`/api/download/${expiring.token}/verify-password`, { password: VERIFIER })).setCookies,
      'sealdrop_link_grant',
    )!;
    expect(Number(grant.get('max-age'))).toBe(3600);

    server.clock.advance(3_600_000);
    const expired = { detail: 'This link has expired.', code: 'LINK_EXPIRED' };
    const status = await client.get(`/api/download/${expiring.token}/status`);
    expect(status.status).toBe(410);
    expect(status.body).toEqual(expired);
    const verify = await client.post(`/api/download/${expiring.token}/verify-password`, { password: VERIFIER });
    expect(verify.status).toBe(410);
    expect(verify.body).toEqual(expired);
    const download = await getBytes(client, `/api/download/${expiring.token}/file/${file.id}`);
    expect(download.status).toBe(410);
    expect(JSON.parse(download.body.toString())).toEqual(expired);
  });

  it('answers 404 on every route for an unknown token', async () => {
    const client = await recipient();
    const token = 'z'.repeat(43);
    const notFound = { detail: 'Download link not found.', code: 'LINK_NOT_FOUND' };
    expect((await client.get(`/api/download/${token}/status`)).body).toEqual(notFound);
    const verify = await client.post(`/api/download/${token}/verify-password`, { password: VERIFIER });
    expect(verify.status).toBe(404);
    expect(verify.body).toEqual(notFound);
    const download = await getBytes(client, `/api/download/${token}/file/1`);
    expect(download.status).toBe(404);
    expect(JSON.parse(download.body.toString())).toEqual(notFound);
  });

  it('stops working when the admin deletes the link or the folder', async () => {
    const byLink = await share();
    const byFolder = await share({ password: true });
    const client = await recipient();
    expect((await getBytes(client, `/api/download/${byLink.token}/file/${byLink.files[0]!.id}`)).status).toBe(200);

    expect((await alice.request('DELETE', `/api/download/links/${byLink.token}`)).status).toBe(204);
    expect((await client.get(`/api/download/${byLink.token}/status`)).status).toBe(404);
    expect((await getBytes(client, `/api/download/${byLink.token}/file/${byLink.files[0]!.id}`)).status).toBe(404);

    expect((await alice.request('DELETE', `/api/folders/${byFolder.folderId}`)).status).toBe(204);
    expect((await client.get(`/api/download/${byFolder.token}/status`)).status).toBe(404);
    expect(await server.app.repos.downloadLinks.findByToken(byFolder.token)).toBeUndefined();
  });
});
