// Download links, the admin's side, over real HTTP: creating a link (validation of every field,
// ownership, one folder per link), listing a folder's active links, deleting a link.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { createFolder, seedFile, type SeededFile } from './files-fixtures.ts';

let server: TestServer;
let alice: TestClient;
let bob: TestClient;

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInClient(server, 'alice')).client;
  bob = (await signedInClient(server, 'bob')).client;
});
afterAll(() => server.close());

const VERIFIER = 'dmVyaWZpZXItZnJvbS10aGUtYnJvd3Nlcg';
const wrappedKey = () => `${randomBytes(48).toString('base64')}:${randomBytes(60).toString('base64')}`;
const keysFor = (files: SeededFile[]) => JSON.stringify(Object.fromEntries(files.map((file) => [String(file.id), wrappedKey()])));
const inDays = (days: number) => new Date(server.clock.now() + days * 86_400_000).toISOString();

async function folderWithFiles(client: TestClient, count: number) {
  const folder = await createFolder(client, `Folder ${randomBytes(3).toString('hex')}`);
  const files: SeededFile[] = [];
  for (let i = 0; i < count; i++) files.push(await seedFile(server, folder.id, { name: `doc-${i}.pdf` }));
  return { folder, files };
}

/** Moves the clock past the session lifetime, and signs both admins in again. */
async function advanceSignedIn(ms: number): Promise<void> {
  server.clock.advance(ms);
  for (const [client, name] of [[alice, 'alice'], [bob, 'bob']] as const) {
    expect((await client.login(name, 'correct horse')).status).toBe(200);
  }
}

/** The per-file download counts of a link nobody has fetched from yet. */
const unfetched = (ids: number[]) => ids.map((id) => ({ file_id: id, download_count: 0, last_download_at: null }));

function validationMessages(body: { detail: Array<{ loc: string[]; msg: string }> }): string[] {
  return body.detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`);
}

describe('POST /api/download/links', () => {
  it('creates a link without password: keys stay out of the server, the URL is {origin}/download/{token}', async () => {
    const { files } = await folderWithFiles(alice, 2);
    const response = await alice.post('/api/download/links', {
      file_ids: files.map((file) => file.id),
      password: null,
      expiration_date: inDays(3),
      reencrypted_keys_json: null,
    });
    expect(response.status).toBe(201);
    const { link_token, full_url, has_password, expiration_date } = response.body;
    expect(link_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(full_url).toBe(`${server.baseUrl}/download/${link_token}`);
    expect(has_password).toBe(false);
    expect(expiration_date).toBe(inDays(3));

    const stored = await server.app.repos.downloadLinks.findByToken(link_token);
    expect(stored).toMatchObject({ verifierHash: null, reencryptedKeysJson: null });
  });

  it('creates a password link: stores only a hash of the verifier and the wrapped keys', async () => {
    const { files } = await folderWithFiles(alice, 2);
    const keys = keysFor(files);
    const response = await alice.post('/api/download/links', {
      file_ids: files.map((file) => file.id),
      password: VERIFIER,
      expiration_date: null,
      reencrypted_keys_json: keys,
    });
    expect(response.status).toBe(201);
    expect(response.body.has_password).toBe(true);
    expect(response.body.expiration_date).toBeNull();
    const stored = await server.app.repos.downloadLinks.findByToken(response.body.link_token);
    expect(stored!.verifierHash).toMatch(/^\$argon2id\$/);
    expect(stored!.verifierHash).not.toContain(VERIFIER);
    expect(JSON.parse(stored!.reencryptedKeysJson!)).toEqual(JSON.parse(keys));
  });

  it('accepts a payload without the optional fields (no password, no expiry)', async () => {
    const { files } = await folderWithFiles(alice, 1);
    const response = await alice.post('/api/download/links', { file_ids: [files[0]!.id] });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ has_password: false, expiration_date: null });
  });

  it('refuses bad fields with 422 and a message per field', async () => {
    const { files } = await folderWithFiles(alice, 2);
    const ids = files.map((file) => file.id);
    const cases: Array<[unknown, string]> = [
      [{ file_ids: [] }, 'body.file_ids: Please select at least one file to create a download link.'],
      [{}, 'body.file_ids: Field required'],
      [{ file_ids: ['x'] }, 'body.file_ids.0: File id must be a number'],
      [{ file_ids: ids, password: 'short', reencrypted_keys_json: keysFor(files) }, 'body.password: Password must be at least 8 characters long.'],
      [{ file_ids: ids, expiration_date: 'tomorrow' }, 'body.expiration_date: Please select a valid expiration date.'],
      [{ file_ids: ids, expiration_date: '2031-02-31T10:00:00Z' }, 'body.expiration_date: Please select a valid expiration date.'],
      [{ file_ids: ids, expiration_date: inDays(-1) }, 'body.expiration_date: The expiration date must be in the future.'],
      [{ file_ids: ids, password: VERIFIER }, 'body.reencrypted_keys_json: Wrapped keys are required with a password'],
      [
        { file_ids: ids, password: null, reencrypted_keys_json: keysFor(files) },
        'body.reencrypted_keys_json: Keys of a link without password belong in the link, not on the server',
      ],
      [
        { file_ids: ids, password: VERIFIER, reencrypted_keys_json: keysFor(files.slice(0, 1)) },
        `body.reencrypted_keys_json: Missing key for file ${ids[1]}`,
      ],
      [
        { file_ids: ids.slice(0, 1), password: VERIFIER, reencrypted_keys_json: keysFor(files) },
        `body.reencrypted_keys_json: Key given for a file that is not in the link: ${ids[1]}`,
      ],
      [
        { file_ids: ids, password: VERIFIER, reencrypted_keys_json: '[1,2]' },
        'body.reencrypted_keys_json: Must be a JSON object mapping file ids to keys',
      ],
      [
        { file_ids: ids.slice(0, 1), password: VERIFIER, reencrypted_keys_json: JSON.stringify({ [ids[0]!]: 'not a key' }) },
        `body.reencrypted_keys_json: Key of file ${ids[0]} must be 'wrappedKey:ivPlusCiphertext' in base64`,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await alice.post('/api/download/links', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(validationMessages(response.body)).toContain(message);
    }
  });

  it('refuses files of two folders with 422', async () => {
    const first = await folderWithFiles(alice, 1);
    const second = await folderWithFiles(alice, 1);
    const response = await alice.post('/api/download/links', { file_ids: [first.files[0]!.id, second.files[0]!.id] });
    expect(response.status).toBe(422);
    expect(validationMessages(response.body)).toEqual(['body.file_ids: All files of a link must be in the same folder.']);
  });

  it('answers 404 when any file is another admin\'s or missing', async () => {
    const mine = await folderWithFiles(alice, 1);
    const theirs = await folderWithFiles(bob, 1);
    const foreign = await alice.post('/api/download/links', { file_ids: [mine.files[0]!.id, theirs.files[0]!.id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'File not found', code: 'FILE_NOT_FOUND' });
    const missing = await alice.post('/api/download/links', { file_ids: [mine.files[0]!.id, 9_999_999] });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(foreign.body);
  });

  it('needs a session and the CSRF header', async () => {
    const { files } = await folderWithFiles(alice, 1);
    expect((await alice.post('/api/download/links', { file_ids: [files[0]!.id] }, { csrf: false })).status).toBe(403);
    const anonymous = server.client();
    await anonymous.primeCsrf();
    expect((await anonymous.post('/api/download/links', { file_ids: [files[0]!.id] })).status).toBe(401);
  });

  it('uses PUBLIC_URL for full_url when it is configured', async () => {
    // PUBLIC_URL is the server's own address here: a request through another Host is refused (public-origin.test.ts).
    const other = await startServer({ ownPublicUrl: true });
    try {
      const { client } = await signedInClient(other, 'carol');
      const folder = await createFolder(client, 'Published');
      const file = await seedFile(other, folder.id);
      const response = await client.post('/api/download/links', { file_ids: [file.id] });
      expect(response.status).toBe(201);
      expect(response.body.full_url).toBe(`${other.env.PUBLIC_URL}/download/${response.body.link_token}`);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/download/links/folder/{folderId}', () => {
  it('lists the folder\'s unexpired links, newest first, with dates, password flag and file names', async () => {
    const { folder, files } = await folderWithFiles(alice, 3);
    const created: string[] = [];
    const createdAt: number[] = [];
    // Bodies are built after the clock moves, so each expiry counts from its link's creation.
    for (const [index, body] of [
      () => ({ file_ids: [files[0]!.id, files[1]!.id], expiration_date: inDays(1) }),
      () => ({ file_ids: [files[2]!.id], password: VERIFIER, reencrypted_keys_json: keysFor([files[2]!]) }),
      () => ({ file_ids: [files[1]!.id], expiration_date: inDays(10) }),
    ].entries()) {
      server.clock.advance(1000 + index);
      createdAt.push(server.clock.now());
      const response = await alice.post('/api/download/links', body());
      expect(response.status).toBe(201);
      created.push(response.body.link_token);
    }

    const response = await alice.get(`/api/download/links/folder/${folder.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        link_token: created[2],
        creation_date: new Date(createdAt[2]!).toISOString(),
        expiration_date: new Date(createdAt[2]! + 10 * 86_400_000).toISOString(),
        has_password: false,
        file_count: 1,
        files: ['doc-1.pdf'],
        max_downloads: null,
        file_downloads: unfetched([files[1]!.id]),
      },
      {
        link_token: created[1],
        creation_date: new Date(createdAt[1]!).toISOString(),
        expiration_date: null,
        has_password: true,
        file_count: 1,
        files: ['doc-2.pdf'],
        max_downloads: null,
        file_downloads: unfetched([files[2]!.id]),
      },
      {
        link_token: created[0],
        creation_date: new Date(createdAt[0]!).toISOString(),
        expiration_date: new Date(createdAt[0]! + 86_400_000).toISOString(),
        has_password: false,
        file_count: 2,
        files: ['doc-0.pdf', 'doc-1.pdf'],
        max_downloads: null,
        file_downloads: unfetched([files[0]!.id, files[1]!.id]),
      },
    ]);

    // Once the first link has expired it is no longer "active".
    await advanceSignedIn(2 * 86_400_000);
    const later = await alice.get(`/api/download/links/folder/${folder.id}`);
    expect(later.body.map((link: { link_token: string }) => link.link_token)).toEqual([created[2], created[1]]);

    // A deleted file leaves the links that shared it.
    await alice.post('/api/folders/files/delete', { file_ids: [files[1]!.id] });
    const afterDelete = await alice.get(`/api/download/links/folder/${folder.id}`);
    expect(afterDelete.body[0]).toMatchObject({ file_count: 0, files: [] });
  });

  it('answers an empty list for a folder without links, 404 for another admin\'s folder', async () => {
    const { folder } = await folderWithFiles(alice, 1);
    expect((await alice.get(`/api/download/links/folder/${folder.id}`)).body).toEqual([]);
    const foreign = await bob.get(`/api/download/links/folder/${folder.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' });
    expect((await bob.get('/api/download/links/folder/987654')).body).toEqual(foreign.body);
    expect((await alice.get('/api/download/links/folder/abc')).status).toBe(422);
    expect((await server.client().get(`/api/download/links/folder/${folder.id}`)).status).toBe(401);
  });
});

describe('DELETE /api/download/links/{link_token}', () => {
  it('deletes the owner\'s link; another admin gets 404 and the link keeps working', async () => {
    const { folder, files } = await folderWithFiles(alice, 1);
    const token = (await alice.post('/api/download/links', { file_ids: [files[0]!.id] })).body.link_token as string;

    const foreign = await bob.request('DELETE', `/api/download/links/${token}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Download link not found.', code: 'LINK_NOT_FOUND' });
    expect((await server.client().get(`/api/download/${token}/status`)).status).toBe(200);

    expect((await alice.request('DELETE', `/api/download/links/${token}`, { csrf: false })).status).toBe(403);
    const deleted = await alice.request('DELETE', `/api/download/links/${token}`);
    expect(deleted.status).toBe(204);
    expect((await alice.get(`/api/download/links/folder/${folder.id}`)).body).toEqual([]);
    const again = await alice.request('DELETE', `/api/download/links/${token}`);
    expect(again.status).toBe(404);
    expect((await server.client().get(`/api/download/${token}/status`)).status).toBe(404);
  });

  it('needs a session', async () => {
    const anonymous = server.client();
    await anonymous.primeCsrf();
    expect((await anonymous.request('DELETE', '/api/download/links/sometoken')).status).toBe(401);
  });
});
