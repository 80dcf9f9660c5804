// GET /api/folders/: sorting (sort_by, sort_order, default creation_date desc, unknown keys 422) and
// the values computed from a folder's files (last_upload_time, has_undownloaded_files).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewFileRecord } from '../../server/db/repositories/index.ts';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const MINUTE = 60_000;
let fileCounter = 0;

/** A file row as the upload feature will write it (inserted through the repository). */
function fileRow(folderId: number, uploadTime: number): NewFileRecord {
  fileCounter += 1;
  return {
    folderId,
    originalFilename: `file-${fileCounter}.pdf`,
    storedFilename: `upload/file-${fileCounter}.pdf`,
    relativePath: '.',
    fileSize: 1234,
    fileHash: 'a'.repeat(64),
    encryptedKey: 'd3JhcHBlZA==',
    encryptionIv: 'aXY=',
    blobKey: `test/${fileCounter}-${Date.now()}`,
    uploadTime,
  };
}

async function create(client: TestClient, payload: Record<string, unknown>): Promise<{ id: number; title: string }> {
  const response = await client.post('/api/folders/', payload);
  expect(response.status).toBe(201);
  server.clock.advance(MINUTE); // distinct creation dates
  return response.body;
}

async function titles(client: TestClient, query = ''): Promise<string[]> {
  const response = await client.get(`/api/folders/${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.map((folder: { title: string }) => folder.title);
}

describe('GET /api/folders/ sorting', () => {
  let client: TestClient;

  beforeAll(async () => {
    ({ client } = await signedInClient(server, 'sorter'));
    const start = server.clock.now();
    // Created in this order (creation_date ascending): banana, Apple, cherry, date.
    const banana = await create(client, { title: 'banana', expiration_date: new Date(start + 50 * 86_400_000).toISOString() });
    const apple = await create(client, { title: 'Apple' }); // never expires
    const cherry = await create(client, { title: 'cherry', expiration_date: new Date(start + 5 * 86_400_000).toISOString() });
    await create(client, { title: 'date', expiration_date: new Date(start + 20 * 86_400_000).toISOString() }); // no uploads
    await server.app.repos.files.create(fileRow(banana.id, start + 10 * MINUTE));
    await server.app.repos.files.create(fileRow(apple.id, start + 30 * MINUTE));
    await server.app.repos.files.create(fileRow(apple.id, start + 5 * MINUTE));
    await server.app.repos.files.create(fileRow(cherry.id, start + 20 * MINUTE));
  });

  it('defaults to creation date, newest first', async () => {
    expect(await titles(client)).toEqual(['date', 'cherry', 'Apple', 'banana']);
  });

  it('sorts by creation date in both directions', async () => {
    expect(await titles(client, '?sort_by=creation_date&sort_order=asc')).toEqual(['banana', 'Apple', 'cherry', 'date']);
    expect(await titles(client, '?sort_by=creation_date&sort_order=desc')).toEqual(['date', 'cherry', 'Apple', 'banana']);
  });

  it('sorts by title ignoring letter case', async () => {
    expect(await titles(client, '?sort_by=title&sort_order=asc')).toEqual(['Apple', 'banana', 'cherry', 'date']);
    expect(await titles(client, '?sort_by=title&sort_order=desc')).toEqual(['date', 'cherry', 'banana', 'Apple']);
  });

  it('sorts by expiry; no expiry counts as later than any date', async () => {
    expect(await titles(client, '?sort_by=expiration_date&sort_order=asc')).toEqual(['cherry', 'date', 'banana', 'Apple']);
    expect(await titles(client, '?sort_by=expiration_date&sort_order=desc')).toEqual(['Apple', 'banana', 'date', 'cherry']);
  });

  it('sorts by the newest upload; no upload counts as earlier than any upload', async () => {
    expect(await titles(client, '?sort_by=last_upload_time&sort_order=asc')).toEqual(['date', 'banana', 'cherry', 'Apple']);
    expect(await titles(client, '?sort_by=last_upload_time&sort_order=desc')).toEqual(['Apple', 'cherry', 'banana', 'date']);
  });

  it('takes the order alone (sort key defaults to creation date) and the key alone (order defaults to desc)', async () => {
    expect(await titles(client, '?sort_order=asc')).toEqual(['banana', 'Apple', 'cherry', 'date']);
    expect(await titles(client, '?sort_by=title')).toEqual(['date', 'cherry', 'banana', 'Apple']);
  });

  it('answers 422 for an unknown sort key or order', async () => {
    const key = await client.get('/api/folders/?sort_by=owner_id');
    expect(key.status).toBe(422);
    expect(key.body).toEqual({
      detail: [
        { loc: ['query', 'sort_by'], msg: 'Sort key must be one of title, creation_date, expiration_date, last_upload_time' },
      ],
      code: 'VALIDATION_FAILED',
    });
    const order = await client.get('/api/folders/?sort_order=sideways');
    expect(order.status).toBe(422);
    expect(order.body).toEqual({ detail: [{ loc: ['query', 'sort_order'], msg: 'Sort order must be asc or desc' }], code: 'VALIDATION_FAILED' });
  });
});

describe('values computed from the files', () => {
  it('last_upload_time is the newest upload; has_undownloaded_files until every file was downloaded', async () => {
    const { client } = await signedInClient(server, 'stats');
    const folder = await create(client, { title: 'Stats' });
    const empty = (await client.get(`/api/folders/${folder.id}`)).body;
    expect(empty).toMatchObject({ last_upload_time: null, has_undownloaded_files: false });

    const t = server.clock.now();
    const older = await server.app.repos.files.create(fileRow(folder.id, t - 5 * MINUTE));
    const newer = await server.app.repos.files.create(fileRow(folder.id, t));
    const withFiles = (await client.get(`/api/folders/${folder.id}`)).body;
    expect(withFiles).toMatchObject({ last_upload_time: new Date(t).toISOString(), has_undownloaded_files: true });

    await server.app.repos.files.markDownloaded(older.id, t + MINUTE);
    expect((await client.get(`/api/folders/${folder.id}`)).body.has_undownloaded_files).toBe(true);
    await server.app.repos.files.markDownloaded(newer.id, t + MINUTE);
    const listed = (await client.get('/api/folders/')).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ last_upload_time: new Date(t).toISOString(), has_undownloaded_files: false });
  });

  it("one admin's files never show in another admin's folder values", async () => {
    const alice = await signedInClient(server, 'stats-alice');
    const bob = await signedInClient(server, 'stats-bob');
    const aliceFolder = await create(alice.client, { title: 'A' });
    await create(bob.client, { title: 'B' });
    await server.app.repos.files.create(fileRow(aliceFolder.id, server.clock.now()));
    const bobs = (await bob.client.get('/api/folders/')).body;
    expect(bobs).toHaveLength(1);
    expect(bobs[0]).toMatchObject({ title: 'B', last_upload_time: null, has_undownloaded_files: false });
  });
});
