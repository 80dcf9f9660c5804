// Issue 28: unfinished uploads hold space; the admin frees it. Deleting a folder removes its
// unfinished uploads' bytes at once (before, they stayed until the sweep found them abandoned).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../server/harness.ts';
import { createFolderOf, fakeCiphertext, tusCreate, tusPatch } from '../server/upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
});
afterAll(() => server.close());

async function adminWithFolder(username: string) {
  const { client, user } = await signedInClient(server, username);
  const folder = await createFolderOf(server, user.id);
  return { client, folder };
}

describe('unfinished uploads', () => {
  it('deleting a folder removes its unfinished uploads and their bytes at once', async () => {
    const { client, folder } = await adminWithFolder('deleter');
    const uploader = server.client();
    const data = fakeCiphertext(server, 200_000);
    const created = await tusCreate(uploader, folder, data.length, { filename: 'half.bin', plainSize: 200_000 });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    expect((await tusPatch(uploader, location, 0, data.subarray(0, 100_000))).status).toBe(204);
    const bytes = path.join(server.config.dataDir, 'blobs', 'uploads', id);
    expect(fs.statSync(bytes).size).toBe(100_000);

    expect((await client.request('DELETE', `/api/folders/${folder.id}`)).status).toBe(204);
    expect(fs.existsSync(bytes)).toBe(false);
    expect(await server.app.repos.uploadSessions.find(id)).toBeUndefined();
  });
});

describe('the admin lists and cancels unfinished uploads', () => {
  it('lists a folder\'s unfinished uploads with the bytes they hold, and cancelling frees them at once', async () => {
    const { client, folder } = await adminWithFolder('canceller');
    const uploader = server.client();
    const data = fakeCiphertext(server, 200_000);
    const created = await tusCreate(uploader, folder, data.length, { filename: 'part.bin', relativePath: 'Docs', plainSize: 200_000 });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    expect((await tusPatch(uploader, location, 0, data.subarray(0, 70_000))).status).toBe(204);

    const listed = await client.get(`/api/folders/${folder.id}/uploads`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id,
        filename: 'part.bin',
        relative_path: 'Docs',
        upload_length: data.length,
        received_bytes: 70_000,
        created_at: expect.any(Number),
        last_activity_at: expect.any(Number),
      },
    ]);

    const cancelled = await client.request('DELETE', `/api/folders/${folder.id}/uploads/${id}`);
    expect(cancelled.status).toBe(204);
    expect(fs.existsSync(path.join(server.config.dataDir, 'blobs', 'uploads', id))).toBe(false);
    expect((await client.get(`/api/folders/${folder.id}/uploads`)).body).toEqual([]);
    // The uploader's next request finds it gone; a second cancel answers 404.
    expect((await tusPatch(uploader, location, 70_000, data.subarray(70_000))).status).toBe(404);
    const again = await client.request('DELETE', `/api/folders/${folder.id}/uploads/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'UPLOAD_NOT_FOUND' });
  });

  it('answers 404 for another admin\'s folder and upload, and lists nothing of it', async () => {
    const { folder } = await adminWithFolder('victim');
    const uploader = server.client();
    const data = fakeCiphertext(server, 10_000);
    const created = await tusCreate(uploader, folder, data.length, { filename: 'x.bin', plainSize: 10_000 });
    const id = created.headers.get('location')!.split('/').pop()!;
    const { client: intruder, folder: own } = await adminWithFolder('intruder');
    expect((await intruder.get(`/api/folders/${folder.id}/uploads`)).status).toBe(404);
    expect((await intruder.request('DELETE', `/api/folders/${folder.id}/uploads/${id}`)).status).toBe(404);
    // Naming the victim's upload under the intruder's own folder does not reach it either.
    expect((await intruder.request('DELETE', `/api/folders/${own.id}/uploads/${id}`)).status).toBe(404);
    expect(await server.app.repos.uploadSessions.find(id)).toBeDefined();
    expect((await intruder.request('DELETE', `/api/folders/${own.id}/uploads/..%2F..%2Fsealdrop.db`)).status).toBe(422);
  });
});
