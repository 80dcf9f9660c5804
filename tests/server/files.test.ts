// Admin file routes over real HTTP: the file list, the ciphertext download (headers, byte ranges,
// "last downloaded" only after a complete download) and deleting files, each scoped to the owner.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { createFolder, eventually, getBytes, seedFile } from './files-fixtures.ts';

let server: TestServer;
let alice: TestClient;
let bob: TestClient;

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInClient(server, 'alice')).client;
  bob = (await signedInClient(server, 'bob')).client;
});
afterAll(() => server.close());

async function lastDownloaded(client: TestClient, folderId: number, fileId: number): Promise<string | null> {
  const list = await client.get(`/api/folders/${folderId}/files`);
  expect(list.status).toBe(200);
  return list.body.find((file: { id: number }) => file.id === fileId).last_downloaded_admin;
}

describe('GET /api/folders/{id}/files', () => {
  it('lists the folder\'s file records with ISO times', async () => {
    const folder = await createFolder(alice, 'Listing');
    const a = await seedFile(server, folder.id, { name: 'a.txt' });
    const b = await seedFile(server, folder.id, { name: 'b.txt', relativePath: 'docs/2024' });
    const other = await createFolder(alice, 'Other');
    await seedFile(server, other.id);

    const response = await alice.get(`/api/folders/${folder.id}/files`);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    const [first, second] = response.body;
    expect(first).toEqual({
      id: a.id,
      original_filename: 'a.txt',
      stored_filename: 'upload/a.txt',
      relative_path: '.',
      file_size: a.content.length - 16,
      file_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      encrypted_key: a.encryptedKey,
      encryption_iv: a.encryptionIv,
      upload_time: new Date(server.clock.now()).toISOString(),
      last_downloaded_admin: null,
      key_epoch: null,
    });
    expect(second).toMatchObject({ id: b.id, stored_filename: 'upload/docs/2024/b.txt', relative_path: 'docs/2024' });
  });

  it('answers an empty list for an empty folder', async () => {
    const folder = await createFolder(alice, 'Empty');
    const response = await alice.get(`/api/folders/${folder.id}/files`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('answers 404 for another admin\'s folder exactly like a missing one', async () => {
    const folder = await createFolder(alice, 'Private');
    await seedFile(server, folder.id);
    const foreign = await bob.get(`/api/folders/${folder.id}/files`);
    const missing = await bob.get('/api/folders/999999/files');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(foreign.body);
  });

  it('needs a session and a numeric id', async () => {
    const anonymous = server.client();
    expect((await anonymous.get('/api/folders/1/files')).status).toBe(401);
    const bad = await alice.get('/api/folders/abc/files');
    expect(bad.status).toBe(422);
  });
});

describe('GET /api/folders/download/{fileId}', () => {
  it('streams the ciphertext with the key, IV, size and file name headers', async () => {
    const folder = await createFolder(alice, 'Download');
    const file = await seedFile(server, folder.id, { name: 'Grüße "Ä" 報告.pdf' });
    const response = await getBytes(alice, `/api/folders/download/${file.id}`);
    expect(response.status).toBe(200);
    expect(response.body.equals(file.content)).toBe(true);
    expect(response.headers.get('x-encrypted-key')).toBe(file.encryptedKey);
    expect(response.headers.get('x-encryption-iv')).toBe(file.encryptionIv);
    expect(response.headers.get('x-file-size')).toBe(String(file.content.length - 16));
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(file.content.length));
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="Gru_e _A_ __.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%22%C3%84%22%20%E5%A0%B1%E5%91%8A.pdf`,
    );
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toBe('Grüße "Ä" 報告.pdf');
  });

  it('answers 404 for another admin\'s file exactly like a missing one, and 401 without a session', async () => {
    const folder = await createFolder(alice, 'Mine');
    const file = await seedFile(server, folder.id);
    const foreign = await getBytes(bob, `/api/folders/download/${file.id}`);
    const missing = await getBytes(bob, '/api/folders/download/987654');
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body.toString())).toEqual({ detail: 'File not found', code: 'FILE_NOT_FOUND' });
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe(foreign.body.toString());
    expect(foreign.headers.get('x-encrypted-key')).toBeNull();
    expect((await getBytes(server.client(), `/api/folders/download/${file.id}`)).status).toBe(401);
    expect((await getBytes(alice, '/api/folders/download/x1')).status).toBe(422);
  });

  it('answers byte ranges with 206 and content-range, so an interrupted download can continue', async () => {
    const folder = await createFolder(alice, 'Ranges');
    const file = await seedFile(server, folder.id, { content: randomBytes(1000) });
    const url = `/api/folders/download/${file.id}`;

    const middle = await getBytes(alice, url, { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(middle.headers.get('content-length')).toBe('100');
    expect(middle.headers.get('x-encrypted-key')).toBe(file.encryptedKey);
    expect(middle.body.equals(file.content.subarray(100, 200))).toBe(true);

    const rest = await getBytes(alice, url, { range: 'bytes=900-' });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe('bytes 900-999/1000');
    expect(rest.body.equals(file.content.subarray(900))).toBe(true);

    const suffix = await getBytes(alice, url, { range: 'bytes=-10' });
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(file.content.subarray(990))).toBe(true);

    const clipped = await getBytes(alice, url, { range: 'bytes=990-5000' });
    expect(clipped.headers.get('content-range')).toBe('bytes 990-999/1000');

    const beyond = await getBytes(alice, url, { range: 'bytes=1000-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');

    // Several ranges, or an If-Range naming another version: the whole file, as RFC 9110 allows.
    const several = await getBytes(alice, url, { range: 'bytes=0-1,5-6' });
    expect(several.status).toBe(200);
    expect(several.body.equals(file.content)).toBe(true);
    const stale = await getBytes(alice, url, { range: 'bytes=10-', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    const etag = stale.headers.get('etag')!;
    const fresh = await getBytes(alice, url, { range: 'bytes=10-', 'if-range': etag });
    expect(fresh.status).toBe(206);
    expect(fresh.body.equals(file.content.subarray(10))).toBe(true);
  });

  it('sets last_downloaded_admin only once a response with the last byte has been sent completely', async () => {
    const folder = await createFolder(alice, 'Downloaded');
    const file = await seedFile(server, folder.id, { content: randomBytes(2000) });
    const url = `/api/folders/download/${file.id}`;

    expect((await getBytes(alice, url, { range: 'bytes=0-999' })).status).toBe(206);
    expect((await getBytes(alice, url, { range: 'bytes=5000-' })).status).toBe(416);
    // Wait until the server has finished with both requests before asserting that nothing was marked.
    await server.settled();
    expect(await lastDownloaded(alice, folder.id, file.id)).toBeNull();

    server.clock.advance(60_000);
    const etag = (await getBytes(alice, url, { range: 'bytes=0-0' })).headers.get('etag')!;
    expect((await getBytes(alice, url, { range: 'bytes=1000-', 'if-range': etag })).status).toBe(206);
    const expected = new Date(server.clock.now()).toISOString();
    expect(await eventually(async () => (await lastDownloaded(alice, folder.id, file.id)) === expected)).toBe(true);

    const folders = await alice.get(`/api/folders/${folder.id}`);
    expect(folders.body.has_undownloaded_files).toBe(false);
  });

  it('does not count a range that only includes the last byte: bytes=-1, or bytes=N- without If-Range', async () => {
    const folder = await createFolder(alice, 'Probed');
    const file = await seedFile(server, folder.id, { content: randomBytes(2000) });
    const url = `/api/folders/download/${file.id}`;
    const probe = await getBytes(alice, url, { range: 'bytes=-1' });
    expect(probe.status).toBe(206);
    expect(probe.body).toHaveLength(1);
    expect((await getBytes(alice, url, { range: 'bytes=1999-' })).status).toBe(206);
    expect((await getBytes(alice, url, { range: 'bytes=1500-1999', 'if-range': probe.headers.get('etag')! })).status).toBe(206);
    await server.settled();
    expect(await lastDownloaded(alice, folder.id, file.id)).toBeNull();

    // The whole file in one response counts.
    expect((await getBytes(alice, url)).status).toBe(200);
    await server.settled();
    expect(await lastDownloaded(alice, folder.id, file.id)).not.toBeNull();
  });

  it('does not count a download the client aborted', async () => {
    const folder = await createFolder(alice, 'Aborted');
    // Larger than what the socket buffers can absorb, so the server cannot finish before the abort.
    const file = await seedFile(server, folder.id, { content: randomBytes(48 * 1024 * 1024) });
    const controller = new AbortController();
    const cookie = [...alice.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${server.baseUrl}/api/folders/download/${file.id}`, {
      headers: { cookie },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    await server.settled();
    expect(await lastDownloaded(alice, folder.id, file.id)).toBeNull();
  });

  it('offers no HEAD route (it would read the whole blob) and so never marks a download', async () => {
    const folder = await createFolder(alice, 'Head');
    const file = await seedFile(server, folder.id);
    const cookie = [...alice.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const head = await fetch(`${server.baseUrl}/api/folders/download/${file.id}`, { method: 'HEAD', headers: { cookie } });
    expect(head.status).toBe(404);
    await server.settled();
    expect(await lastDownloaded(alice, folder.id, file.id)).toBeNull();
  });
});

describe('POST /api/folders/files/delete', () => {
  it('deletes the owner\'s files and their blobs, and reports unknown and foreign ids in errors', async () => {
    const folder = await createFolder(alice, 'Deleting');
    const [one, two, keep] = [
      await seedFile(server, folder.id),
      await seedFile(server, folder.id),
      await seedFile(server, folder.id),
    ];
    const bobsFolder = await createFolder(bob, 'Bob\'s');
    const bobsFile = await seedFile(server, bobsFolder.id);

    const response = await alice.post('/api/folders/files/delete', { file_ids: [one.id, two.id, bobsFile.id, 424242, one.id] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      deleted: 2,
      errors: [
        { file_id: bobsFile.id, detail: 'File not found' },
        { file_id: 424242, detail: 'File not found' },
      ],
    });

    const list = await alice.get(`/api/folders/${folder.id}/files`);
    expect(list.body.map((file: { id: number }) => file.id)).toEqual([keep.id]);
    expect(await server.app.blobs.stat(one.blobKey)).toBeNull();
    expect(await server.app.blobs.stat(two.blobKey)).toBeNull();
    expect(await server.app.blobs.stat(keep.blobKey)).not.toBeNull();
    expect(await server.app.blobs.stat(bobsFile.blobKey)).not.toBeNull();
    expect((await bob.get(`/api/folders/${bobsFolder.id}/files`)).body).toHaveLength(1);
    expect((await getBytes(alice, `/api/folders/download/${one.id}`)).status).toBe(404);
  });

  it('reports every id when none can be deleted', async () => {
    const response = await alice.post('/api/folders/files/delete', { file_ids: [111111, 222222] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      deleted: 0,
      errors: [
        { file_id: 111111, detail: 'File not found' },
        { file_id: 222222, detail: 'File not found' },
      ],
    });
  });

  it('validates the body and requires the CSRF header and a session', async () => {
    expect((await alice.post('/api/folders/files/delete', { file_ids: [] })).status).toBe(422);
    expect((await alice.post('/api/folders/files/delete', { file_ids: ['1'] })).status).toBe(422);
    expect((await alice.post('/api/folders/files/delete', {})).status).toBe(422);
    expect((await alice.post('/api/folders/files/delete', { file_ids: [1] }, { csrf: false })).status).toBe(403);
    const anonymous = server.client();
    await anonymous.primeCsrf();
    expect((await anonymous.post('/api/folders/files/delete', { file_ids: [1] })).status).toBe(401);
  });
});

describe('routes next to the folder routes', () => {
  it('leaves GET /api/folders/{id} to the folder routes', async () => {
    const folder = await createFolder(alice, 'Neighbours');
    const response = await alice.get(`/api/folders/${folder.id}`);
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Neighbours');
  });
});
