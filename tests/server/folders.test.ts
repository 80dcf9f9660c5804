// /api/folders: create, read, update with the payload rules of spec section 5, bad input, and
// ownership (another admin's folder answers 404 exactly like a missing one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../server/folders/folder-rules.ts';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const FOLDER_KEYS = [
  'allowed_emails',
  'creation_date',
  'description',
  'expiration_date',
  'has_password',
  'has_undownloaded_files',
  'id',
  'is_active',
  'link_token',
  'last_upload_time',
  'perform_mime_check',
  'require_email_verification',
  'title',
  'storage_limit_bytes',
  'file_limit',
  'retention_days',
  'used_bytes',
  'used_files',
  'my_role',
  'is_team',
].sort();

const NOT_FOUND = { detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' };

async function createFolder(client: TestClient, payload: Record<string, unknown>) {
  const response = await client.post('/api/folders/', payload);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function storedPasswordHash(ownerId: number, folderId: number): Promise<string | null> {
  const folder = await server.app.repos.folders.findOwned(ownerId, folderId);
  if (!folder) throw new Error('folder missing');
  return folder.linkPasswordHash;
}

describe('POST /api/folders/', () => {
  it('creates a folder with the defaults and answers 201 with the Folder value (and nothing else)', async () => {
    const { client } = await signedInClient(server, 'create-defaults');
    const response = await client.post('/api/folders/', { title: '  Tax documents 2024  ' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(FOLDER_KEYS);
    expect(response.body).toMatchObject({
      title: 'Tax documents 2024',
      description: null,
      creation_date: new Date(server.clock.now()).toISOString(),
      expiration_date: null,
      last_upload_time: null,
      is_active: true,
      has_password: false,
      require_email_verification: false,
      allowed_emails: null,
      perform_mime_check: true,
      has_undownloaded_files: false,
    });
    expect(typeof response.body.id).toBe('number');
  });

  it('gives each folder its own unguessable URL-safe link token (256 bits)', async () => {
    const { client } = await signedInClient(server, 'create-tokens');
    const first = await createFolder(client, { title: 'One' });
    const second = await createFolder(client, { title: 'Two' });
    expect(first.link_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.link_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.link_token).not.toBe(second.link_token);
  });

  it('stores every option of the form', async () => {
    const { client } = await signedInClient(server, 'create-options');
    const folder = await createFolder(client, {
      title: 'Client uploads',
      description: 'Scans for the audit',
      require_email_verification: true,
      allowed_emails: [' a@example.com ', '', 'B@example.com', 'a@EXAMPLE.com'],
      perform_mime_check: false,
      expiration_date: '2031-05-06T07:08:09.000Z',
      is_active: false,
    });
    expect(folder).toMatchObject({
      description: 'Scans for the audit',
      require_email_verification: true,
      allowed_emails: ['a@example.com', 'B@example.com'],
      perform_mime_check: false,
      expiration_date: '2031-05-06T07:08:09.000Z',
      is_active: false,
    });
    // Reading it back gives the same value.
    expect((await client.get(`/api/folders/${folder.id}`)).body).toEqual(folder);
  });

  it('expires_in_days > 0 sets the expiry to now + days and wins over expiration_date', async () => {
    const { client } = await signedInClient(server, 'create-days');
    const now = server.clock.now();
    const folder = await createFolder(client, {
      title: 'Thirty days',
      expires_in_days: 30,
      expiration_date: '2040-01-01T00:00:00Z',
    });
    expect(folder.expiration_date).toBe(new Date(now + 30 * DAY_MS).toISOString());
  });

  it('expires_in_days null with expiration_date uses the date; an offset is honoured', async () => {
    const { client } = await signedInClient(server, 'create-date');
    const folder = await createFolder(client, {
      title: 'Dated',
      expires_in_days: null,
      expiration_date: '2030-01-31T12:00:00+02:00',
    });
    expect(folder.expiration_date).toBe('2030-01-31T10:00:00.000Z');
  });

  it('an empty or null allowed_emails list is stored as null', async () => {
    const { client } = await signedInClient(server, 'create-emails');
    expect((await createFolder(client, { title: 'a', allowed_emails: [] })).allowed_emails).toBeNull();
    expect((await createFolder(client, { title: 'b', allowed_emails: null })).allowed_emails).toBeNull();
    expect((await createFolder(client, { title: 'c', allowed_emails: [' ', ''] })).allowed_emails).toBeNull();
  });

  it('hashes the link password with argon2id and never returns it; an empty one means none', async () => {
    const { client, user } = await signedInClient(server, 'create-password');
    const response = await client.post('/api/folders/', { title: 'Secret', link_password: 'open sesame' });
    expect(response.status).toBe(201);
    expect(response.body.has_password).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain('open sesame');
    expect(JSON.stringify(response.body)).not.toContain('argon2');
    const hash = await storedPasswordHash(user.id, response.body.id);
    expect(hash).toMatch(/^\$argon2id\$/);

    const none = await createFolder(client, { title: 'Open', link_password: '' });
    expect(none.has_password).toBe(false);
    expect(await storedPasswordHash(user.id, none.id)).toBeNull();
  });

  it('answers 422 for bad input', async () => {
    const { client } = await signedInClient(server, 'create-bad');
    const cases: Array<[Record<string, unknown>, { loc: Array<string | number>; msg: string }]> = [
      [{}, { loc: ['body', 'title'], msg: 'Field required' }],
      [{ description: 'no title' }, { loc: ['body', 'title'], msg: 'Field required' }],
      [{ title: '   ' }, { loc: ['body', 'title'], msg: 'Title is required' }],
      [{ title: 'x'.repeat(256) }, { loc: ['body', 'title'], msg: 'Title must be at most 255 characters' }],
      [{ title: 'a', expires_in_days: 0 }, { loc: ['body', 'expires_in_days'], msg: 'Days must be at least 1' }],
      [{ title: 'a', expires_in_days: -5 }, { loc: ['body', 'expires_in_days'], msg: 'Days must be at least 1' }],
      [{ title: 'a', expires_in_days: 1.5 }, { loc: ['body', 'expires_in_days'], msg: 'Days must be a whole number' }],
      [{ title: 'a', expires_in_days: '30' }, { loc: ['body', 'expires_in_days'], msg: 'Days must be a number' }],
      [
        { title: 'a', expiration_date: 'next tuesday' },
        {
          loc: ['body', 'expiration_date'],
          msg: 'Invalid date format: use an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z',
        },
      ],
      [{ title: 'a', allowed_emails: ['ok@example.com', 'not-an-email'] }, { loc: ['body', 'allowed_emails'], msg: 'Invalid e-mail address: not-an-email' }],
      [{ title: 'a', allowed_emails: 'a@example.com' }, { loc: ['body', 'allowed_emails'], msg: 'Allowed e-mails must be a list' }],
      [{ title: 'a', require_email_verification: 'yes' }, { loc: ['body', 'require_email_verification'], msg: 'Require e-mail verification must be true or false' }],
      [{ title: 'a', link_password: null }, { loc: ['body', 'link_password'], msg: 'Link password must be text' }],
    ];
    for (const [payload, issue] of cases) {
      const response = await client.post('/api/folders/', payload);
      expect(response.status, JSON.stringify(payload)).toBe(422);
      expect(response.body.detail, JSON.stringify(payload)).toContainEqual(issue);
    }
    // Calendar dates that do not exist are refused rather than rolled over.
    for (const date of ['2030-02-30T00:00:00Z', '2030-13-01T00:00:00Z', '2030-01-01T10:00:00', '2030-01-01']) {
      expect((await client.post('/api/folders/', { title: 'a', expiration_date: date })).status, date).toBe(422);
    }
    expect((await client.get('/api/folders/')).body).toEqual([]);
  });

  it('needs a session (401) and the CSRF header (403)', async () => {
    const anonymous = server.client();
    await anonymous.primeCsrf();
    const noSession = await anonymous.post('/api/folders/', { title: 'x' });
    expect(noSession.status).toBe(401);
    expect(noSession.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
    expect((await anonymous.get('/api/folders/')).status).toBe(401);
    expect((await anonymous.get('/api/folders/1')).status).toBe(401);

    const { client } = await signedInClient(server, 'create-csrf');
    const noHeader = await client.request('POST', '/api/folders/', { json: { title: 'x' }, csrf: false });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body).toEqual({ detail: 'CSRF validation failed', code: 'CSRF_FAILED' });
    const wrongHeader = await client.request('POST', '/api/folders/', { json: { title: 'x' }, csrf: 'A'.repeat(43) });
    expect(wrongHeader.status).toBe(403);
    expect((await client.get('/api/folders/')).body).toEqual([]);
  });

  it('is also reachable without the trailing slash', async () => {
    const { client } = await signedInClient(server, 'create-noslash');
    expect((await client.post('/api/folders', { title: 'No slash' })).status).toBe(201);
    expect((await client.get('/api/folders')).body).toHaveLength(1);
  });
});

describe('GET /api/folders/{id}', () => {
  it('answers 404 "Folder not found" for a missing id and 422 for a non-numeric one', async () => {
    const { client } = await signedInClient(server, 'get-bad');
    const missing = await client.get('/api/folders/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    const words = await client.get('/api/folders/abc');
    expect(words.status).toBe(422);
    expect(words.body).toEqual({ detail: [{ loc: ['params', 'id'], msg: 'Folder id must be a positive whole number' }], code: 'VALIDATION_FAILED' });
    expect((await client.get('/api/folders/-1')).status).toBe(422);
    expect((await client.get('/api/folders/1.5')).status).toBe(422);
  });
});

describe('PUT /api/folders/{id}', () => {
  it('changes the fields it names and keeps the others; returns the updated folder', async () => {
    const { client } = await signedInClient(server, 'update-basic');
    const folder = await createFolder(client, {
      title: 'Before',
      description: 'old',
      require_email_verification: true,
      allowed_emails: ['x@example.com'],
      expires_in_days: 10,
    });
    const response = await client.put(`/api/folders/${folder.id}`, { title: 'After', is_active: false });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...folder, title: 'After', is_active: false });
    expect((await client.get(`/api/folders/${folder.id}`)).body).toEqual(response.body);
  });

  it('expiry: days set now + days, a date sets it, explicit null clears it, absence keeps it', async () => {
    const { client } = await signedInClient(server, 'update-expiry');
    const folder = await createFolder(client, { title: 'Expiry', expires_in_days: 30 });
    const path = `/api/folders/${folder.id}`;

    server.clock.advance(60_000); // "now" is the time of the update, not of the creation
    const days = await client.put(path, { title: 'Expiry', expires_in_days: 2 });
    expect(days.body.expiration_date).toBe(new Date(server.clock.now() + 2 * DAY_MS).toISOString());

    const kept = await client.put(path, { title: 'Expiry', expires_in_days: null });
    expect(kept.body.expiration_date).toBe(days.body.expiration_date);

    const dated = await client.put(path, { title: 'Expiry', expiration_date: '2029-12-24T18:00:00Z' });
    expect(dated.body.expiration_date).toBe('2029-12-24T18:00:00.000Z');

    const cleared = await client.put(path, { title: 'Expiry', expiration_date: null });
    expect(cleared.body.expiration_date).toBeNull();
  });

  it('link password: absent keeps it, a new one replaces it, an empty string removes it', async () => {
    const { client, user } = await signedInClient(server, 'update-password');
    const folder = await createFolder(client, { title: 'Guarded', link_password: 'first secret' });
    const path = `/api/folders/${folder.id}`;
    const firstHash = await storedPasswordHash(user.id, folder.id);

    const kept = await client.put(path, { title: 'Guarded', description: 'now with text' });
    expect(kept.body.has_password).toBe(true);
    expect(await storedPasswordHash(user.id, folder.id)).toBe(firstHash);

    const replaced = await client.put(path, { title: 'Guarded', link_password: 'second secret' });
    expect(replaced.body.has_password).toBe(true);
    const secondHash = await storedPasswordHash(user.id, folder.id);
    expect(secondHash).toMatch(/^\$argon2id\$/);
    expect(secondHash).not.toBe(firstHash);

    const removed = await client.put(path, { title: 'Guarded', link_password: '' });
    expect(removed.body.has_password).toBe(false);
    expect(await storedPasswordHash(user.id, folder.id)).toBeNull();
  });

  it('allowed e-mails: [] or null clears the list; a description of blanks becomes null', async () => {
    const { client } = await signedInClient(server, 'update-emails');
    const folder = await createFolder(client, { title: 'List', description: 'text', allowed_emails: ['a@example.com'] });
    const path = `/api/folders/${folder.id}`;
    expect((await client.put(path, { title: 'List', allowed_emails: [] })).body.allowed_emails).toBeNull();
    expect((await client.put(path, { title: 'List', allowed_emails: ['b@example.com'] })).body.allowed_emails).toEqual(['b@example.com']);
    expect((await client.put(path, { title: 'List', allowed_emails: null })).body.allowed_emails).toBeNull();
    expect((await client.put(path, { title: 'List', description: '  ' })).body.description).toBeNull();
  });

  it('answers 422 for a missing title, bad days or date, or a non-numeric id; 404 for a missing folder', async () => {
    const { client } = await signedInClient(server, 'update-bad');
    const folder = await createFolder(client, { title: 'Stays' });
    const path = `/api/folders/${folder.id}`;
    for (const payload of [{}, { title: '' }, { title: 'x', expires_in_days: 0 }, { title: 'x', expires_in_days: -1 }, { title: 'x', expiration_date: 'soon' }, { title: 'x', is_active: 'no' }]) {
      expect((await client.put(path, payload)).status, JSON.stringify(payload)).toBe(422);
    }
    expect((await client.put('/api/folders/abc', { title: 'x' })).status).toBe(422);
    const missing = await client.put('/api/folders/999999', { title: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    expect((await client.get(path)).body).toEqual(folder);
    expect((await client.request('PUT', path, { json: { title: 'x' }, csrf: false })).status).toBe(403);
  });
});

describe('ownership', () => {
  it("another admin's folder answers 404 exactly like a missing one, and stays untouched", async () => {
    const alice = await signedInClient(server, 'owner-alice');
    const bob = await signedInClient(server, 'owner-bob');
    const folder = await createFolder(alice.client, { title: "Alice's", link_password: 'alice secret' });
    const path = `/api/folders/${folder.id}`;

    const read = await bob.client.get(path);
    const update = await bob.client.put(path, { title: 'Taken over', link_password: '' });
    const remove = await bob.client.request('DELETE', path);
    const missing = await bob.client.get('/api/folders/999999');
    for (const response of [read, update, remove, missing]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await bob.client.get('/api/folders/')).body).toEqual([]);

    expect((await alice.client.get(path)).body).toEqual(folder);
    expect((await alice.client.get('/api/folders/')).body).toEqual([folder]);
  });
});
