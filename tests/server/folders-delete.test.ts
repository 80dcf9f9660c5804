// DELETE /api/folders/{id}: the folder, its file records, their blobs and its download links are
// gone, and nothing of it stays reachable. A blob that cannot be removed is logged, not fatal.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let counter = 0;

async function createFolder(client: TestClient, title: string): Promise<{ id: number; link_token: string }> {
  const response = await client.post('/api/folders/', { title });
  expect(response.status).toBe(201);
  return response.body;
}

/** Stores a blob and its file record, as an upload does (blob first, then the row). */
async function addFile(folderId: number, blobContent = 'ciphertext bytes'): Promise<{ id: number; blobKey: string }> {
  counter += 1;
  const blobKey = `folders/${folderId}/${counter}`;
  await server.app.blobs.put(blobKey, Readable.from([Buffer.from(blobContent)]));
  const record = await server.app.repos.files.create({
    folderId,
    originalFilename: `f${counter}.txt`,
    storedFilename: `upload/f${counter}.txt`,
    relativePath: '.',
    fileSize: blobContent.length,
    fileHash: 'b'.repeat(64),
    encryptedKey: 'a2V5',
    encryptionIv: 'aXY=',
    blobKey,
    uploadTime: server.clock.now(),
  });
  return { id: record.id, blobKey };
}

describe('DELETE /api/folders/{id}', () => {
  it('answers 204 and removes the folder, its file records, their blobs and its download links', async () => {
    const { client, user } = await signedInClient(server, 'deleter');
    const folder = await createFolder(client, 'To delete');
    const keep = await createFolder(client, 'To keep');
    const files = [await addFile(folder.id), await addFile(folder.id)];
    const kept = await addFile(keep.id);
    const link = await server.app.repos.downloadLinks.create({
      linkToken: `link-${folder.id}-${Date.now()}`,
      folderId: folder.id,
      ownerId: user.id,
      verifierHash: null,
      reencryptedKeysJson: null,
      expirationDate: null,
      creationDate: server.clock.now(),
      fileIds: files.map((file) => file.id),
    });

    const response = await client.request('DELETE', `/api/folders/${folder.id}`);
    expect(response.status).toBe(204);
    expect(response.body).toBe('');

    const read = await client.get(`/api/folders/${folder.id}`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' });
    expect((await client.put(`/api/folders/${folder.id}`, { title: 'back?' })).status).toBe(404);
    expect((await client.get('/api/folders/')).body.map((f: { id: number }) => f.id)).toEqual([keep.id]);
    expect(await server.app.repos.folders.findOwned(user.id, folder.id)).toBeUndefined();
    expect(await server.app.repos.folders.findByLinkToken(folder.link_token)).toBeUndefined();
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    for (const file of files) expect(await server.app.blobs.stat(file.blobKey)).toBeNull();
    expect(await server.app.repos.downloadLinks.findByToken(link.linkToken)).toBeUndefined();

    // The other folder is untouched.
    expect((await server.app.repos.files.listForFolder(keep.id)).map((f) => f.id)).toEqual([kept.id]);
    expect(await server.app.blobs.stat(kept.blobKey)).not.toBeNull();

    const again = await client.request('DELETE', `/api/folders/${folder.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Folder not found', code: 'FOLDER_NOT_FOUND' });
  });

  it('still deletes the folder when a blob cannot be removed (left for the orphan sweep)', async () => {
    const { client } = await signedInClient(server, 'stuck-blob');
    const folder = await createFolder(client, 'Stuck');
    const file = await addFile(folder.id);
    // A directory where the blob file should be: removing it fails for real.
    const blobPath = path.join(server.config.dataDir, 'blobs', file.blobKey);
    fs.rmSync(blobPath);
    fs.mkdirSync(path.join(blobPath, 'in-the-way'), { recursive: true });

    const response = await client.request('DELETE', `/api/folders/${folder.id}`);
    expect(response.status).toBe(204);
    expect((await client.get(`/api/folders/${folder.id}`)).status).toBe(404);
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
  });

  it('answers 422 for a non-numeric id, 403 without the CSRF header, 401 without a session', async () => {
    const { client } = await signedInClient(server, 'delete-bad');
    const folder = await createFolder(client, 'Guarded');
    const words = await client.request('DELETE', '/api/folders/abc');
    expect(words.status).toBe(422);
    expect(words.body.detail[0].loc).toEqual(['params', 'id']);
    const noCsrf = await client.request('DELETE', `/api/folders/${folder.id}`, { csrf: false });
    expect(noCsrf.status).toBe(403);
    const anonymous = server.client();
    await anonymous.primeCsrf();
    expect((await anonymous.request('DELETE', `/api/folders/${folder.id}`)).status).toBe(401);
    expect((await client.get(`/api/folders/${folder.id}`)).status).toBe(200);
  });
});
