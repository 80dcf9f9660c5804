// Issue 28: per-folder storage and file limits. A new folder takes the server's defaults unless its
// payload names limits (null: "no limit"); the limit counts stored files and unfinished uploads;
// a tus creation that would pass it is refused with 413 FOLDER_QUOTA_EXCEEDED before anything is
// stored, and a multipart request as soon as its next file or bytes would pass it (nothing of it
// is kept). Deleting files, cancelling uploads and the sweep give room back at once, and the
// ledger always equals what the folder holds (files + unfinished uploads + streaming claims).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../server/harness.ts';
import type { TestClient, TestResponse } from '../server/http-client.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  MultipartBody,
  postMultipart,
  sha256,
  tusCreate,
  tusPatch,
  uploadPath,
} from '../server/upload-helpers.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { sendRaw } from '../server/fuzz-http.ts';

const MiB = 1024 * 1024;
const DEFAULT_LIMIT_MB = 3;
const DEFAULT_FILE_LIMIT = 7;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: {
      FOLDER_STORAGE_LIMIT_MB: String(DEFAULT_LIMIT_MB),
      FOLDER_FILE_LIMIT: String(DEFAULT_FILE_LIMIT),
      FOLDER_RETENTION_DAYS: '0',
      UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
    },
  });
});
afterAll(() => server.close());

let adminCount = 0;
async function admin(): Promise<TestClient> {
  return (await signedInClient(server, `limits${++adminCount}`)).client;
}

/** The folder's ledger and the facts it must equal. */
async function ledgerOf(folderId: number) {
  const usage = await server.app.repos.folderUsage.usageOf(folderId);
  const facts = await server.app.repos.folderUsage.recount(folderId);
  expect(usage, 'the ledger equals the files, uploads and claims of the folder').toEqual(facts);
  return usage!;
}

function quotaRefusal(response: TestResponse) {
  expect(response.status, String(JSON.stringify(response.body))).toBe(413);
  // tus serves its refusals as text/plain: the body is the API's JSON all the same.
  const body = typeof response.body === 'string' ? JSON.parse(response.body) : response.body;
  expect(body).toEqual({ detail: "This upload would pass the folder's storage or file limit.", code: 'FOLDER_QUOTA_EXCEEDED' });
}

async function createTus(folder: Folder, plainSize: number, filename = 'file.bin') {
  const uploader = server.client();
  const data = fakeCiphertext(server, plainSize);
  const response = await tusCreate(uploader, folder, data.length, { filename, plainSize });
  return { uploader, data, response, location: response.headers.get('location') };
}

function multipartOf(files: Array<{ name: string; plainSize: number }>): MultipartBody {
  return new MultipartBody().files(files.map((file) => ({ name: file.name, data: fakeCiphertext(server, file.plainSize) })));
}

function leftoverBlobs(): string[] {
  const dir = path.join(server.config.dataDir, 'blobs', 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe('the folder form: limits and their defaults', () => {
  it('a new folder takes the server defaults; null chooses no limit; a change keeps what it does not name', async () => {
    const client = await admin();
    const defaulted = await client.post('/api/folders/', { title: 'Defaults' });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body).toMatchObject({
      storage_limit_bytes: DEFAULT_LIMIT_MB * MiB,
      file_limit: DEFAULT_FILE_LIMIT,
      retention_days: null,
      used_bytes: 0,
      used_files: 0,
    });

    const unlimited = await client.post('/api/folders/', { title: 'Open', storage_limit_bytes: null, file_limit: null, retention_days: 30 });
    expect(unlimited.body).toMatchObject({ storage_limit_bytes: null, file_limit: null, retention_days: 30 });

    const changed = await client.put(`/api/folders/${unlimited.body.id}`, { title: 'Open', file_limit: 12 });
    expect(changed.body).toMatchObject({ storage_limit_bytes: null, file_limit: 12, retention_days: 30 });
    const listed = await client.get('/api/folders/');
    expect(listed.body.find((folder: { id: number }) => folder.id === unlimited.body.id)).toMatchObject({ file_limit: 12, used_files: 0 });
  });

  it.each([
    [{ storage_limit_bytes: 0 }, 'storage_limit_bytes', 'Storage limit must be at least 1 (or null for no limit)'],
    [{ storage_limit_bytes: -1 }, 'storage_limit_bytes', 'Storage limit must be at least 1 (or null for no limit)'],
    [{ storage_limit_bytes: 1.5 }, 'storage_limit_bytes', 'Storage limit must be a whole number'],
    [{ storage_limit_bytes: '100' }, 'storage_limit_bytes', 'Storage limit must be a number or null (no limit)'],
    [{ storage_limit_bytes: 2 ** 51 }, 'storage_limit_bytes', `Storage limit must be at most ${2 ** 50}`],
    [{ file_limit: 0 }, 'file_limit', 'File limit must be at least 1 (or null for no limit)'],
    [{ file_limit: 1e12 }, 'file_limit', 'File limit must be at most 100000000'],
    [{ retention_days: 36_501 }, 'retention_days', 'Retention must be at most 36500'],
    [{ retention_days: true }, 'retention_days', 'Retention must be a number or null (no limit)'],
  ])('refuses %j with 422 naming the field', async (fields, field, message) => {
    const client = await admin();
    const response = await client.post('/api/folders/', { title: 'Bad', ...fields });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([{ loc: ['body', field], msg: message }]);
  });
});

describe('tus creation against the folder limits', () => {
  it('refuses a declared size that would pass the storage limit with 413, storing nothing', async () => {
    const folder = await createUploadFolder(server, { storageLimitBytes: 1 * MiB });
    const fits = await createTus(folder, 600_000);
    expect(fits.response.status).toBe(201);
    const refused = await createTus(folder, 500_000);
    quotaRefusal(refused.response);
    expect(refused.location).toBeNull();
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 600_000, files: 1 });
    expect(await server.app.repos.uploadSessions.listForFolder(folder.id, 10)).toHaveLength(1);
  });

  it('counts unfinished uploads against the file limit, and cancelling one gives its room back at once', async () => {
    const folder = await createUploadFolder(server, { fileLimit: 2 });
    const first = await createTus(folder, 10);
    const second = await createTus(folder, 10);
    expect([first.response.status, second.response.status]).toEqual([201, 201]);
    quotaRefusal((await createTus(folder, 10)).response);

    // The uploader cancels one (tus termination): the next creation fits again.
    const cancelled = await first.uploader.request('DELETE', first.location!, { headers: { 'tus-resumable': '1.0.0' } });
    expect(cancelled.status).toBe(204);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 10, files: 1 });
    expect((await createTus(folder, 10)).response.status).toBe(201);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 20, files: 2 });
  });

  it('a completed upload keeps its room as a file; deleting the file gives it back', async () => {
    const client = await admin();
    const created = await client.post('/api/folders/', { title: 'One file', storage_limit_bytes: 300_000, file_limit: null });
    const folder = (await server.app.repos.folders.findForOperator(created.body.id))!;
    const upload = await createTus(folder as Folder, 250_000);
    expect((await tusPatch(upload.uploader, upload.location!, 0, upload.data)).status).toBe(204);
    const done = await upload.uploader.post(uploadPath(folder as Folder, '/complete'), { uploads: [{ upload_id: upload.location!.split('/').pop(), file_hash: sha256('x') }] });
    const fileId = done.body.successful_files[0].id;
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 250_000, files: 1 });
    quotaRefusal((await createTus(folder as Folder, 100_000)).response);

    const deleted = await client.post('/api/folders/files/delete', { file_ids: [fileId] });
    expect(deleted.body.deleted).toBe(1);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
    expect((await createTus(folder as Folder, 100_000)).response.status).toBe(201);
  });

  it('a lowered limit refuses new uploads and keeps what is stored', async () => {
    const client = await admin();
    const created = await client.post('/api/folders/', { title: 'Lowered', storage_limit_bytes: null, file_limit: null });
    const folder = (await server.app.repos.folders.findForOperator(created.body.id)) as Folder;
    expect((await createTus(folder, 5000)).response.status).toBe(201);
    await client.put(`/api/folders/${folder.id}`, { title: 'Lowered', storage_limit_bytes: 4000 });
    // Even an empty file: the folder is over its limit.
    quotaRefusal((await createTus(folder, 0)).response);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 5000, files: 1 });
  });
});

describe('multipart against the folder limits', () => {
  it('refuses with 413 as soon as the bytes would pass the limit, keeping nothing of the request', async () => {
    const folder = await createUploadFolder(server, { storageLimitBytes: 2 * MiB });
    const before = leftoverBlobs().length;
    // 1.5 MiB fit; the second file's bytes pass 2 MiB part-way.
    const response = await postMultipart(server.client(), uploadPath(folder), multipartOf([
      { name: 'a.bin', plainSize: 1.5 * MiB },
      { name: 'b.bin', plainSize: 1 * MiB },
    ]));
    quotaRefusal(response);
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    expect(leftoverBlobs()).toHaveLength(before);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });

    // What fits is stored, and counted at its plaintext size.
    const fits = await postMultipart(server.client(), uploadPath(folder), multipartOf([{ name: 'a.bin', plainSize: 1.5 * MiB }]));
    expect(fits.status).toBe(200);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 1.5 * MiB, files: 1 });
  });

  it('refuses the file that would pass the file limit, and the connection stays usable', async () => {
    const folder = await createUploadFolder(server, { fileLimit: 3 });
    const uploader = server.client();
    const response = await postMultipart(uploader, uploadPath(folder), multipartOf([1, 2, 3, 4, 5].map((n) => ({ name: `${n}.txt`, plainSize: 100 }))));
    quotaRefusal(response);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
    // The refused body was read to its end: the same client's next request is answered.
    const three = await postMultipart(uploader, uploadPath(folder), multipartOf([1, 2, 3].map((n) => ({ name: `${n}.txt`, plainSize: 100 }))));
    expect(three.status).toBe(200);
    expect(three.body.successful_files).toHaveLength(3);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 300, files: 3 });
  });

  it('a client that stops mid-body (half-closes its connection) leaves nothing: no blob, no claim, the request ends', async () => {
    const folder = await createUploadFolder(server, { storageLimitBytes: 10 * MiB });
    const before = leftoverBlobs().length;
    const multipart = multipartOf([{ name: 'cut.bin', plainSize: 2 * MiB }]);
    const body = multipart.build();
    const uploader = server.client();
    await uploader.primeCsrf();
    const cookie = [...uploader.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // The declared length of the whole body, half of it sent, then the client's side closed.
    await sendRaw(Number(new URL(server.baseUrl).port), {
      method: 'POST',
      path: uploadPath(folder),
      headers: [
        ['content-type', multipart.contentType],
        ['content-length', String(body.length)],
        ['cookie', cookie],
        ['x-csrftoken', uploader.csrfToken!],
      ],
      body: body.subarray(0, body.length / 2),
      contentLength: false,
      endAfterWrite: true,
    });
    // The request ends (a part that ended early used to leave the store waiting for it forever).
    await server.settled(20_000);
    // The handler's clean-up outlives the response (closed when the client went): its blobs are
    // deleted first, then its claim is given back.
    await vi.waitFor(
      async () => {
        expect(leftoverBlobs()).toHaveLength(before);
        expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
      },
      { timeout: 20_000, interval: 50 },
    );
  });

  it('counts a streaming request while it streams, and the sweep gives back the claim of one that died', async () => {
    const folder = await createUploadFolder(server, { storageLimitBytes: 1000 });
    // A request that died mid-body leaves its claim (as a killed process would).
    await server.app.repos.folderUsage.openClaim('dead-request', folder.id, server.clock.now() + server.config.upload.abandonAfterMs);
    expect(await server.app.repos.folderUsage.growClaim('dead-request', folder.id, { bytes: 900, files: 1 }, server.clock.now() + server.config.upload.abandonAfterMs)).toBe(true);
    quotaRefusal((await createTus(folder, 200)).response);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 900, files: 1 });

    server.clock.advance(server.config.upload.abandonAfterMs + 1);
    const report = await server.app.sweepUploads();
    expect(report.expiredClaims).toBeGreaterThanOrEqual(1);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
    expect((await createTus(folder, 200)).response.status).toBe(201);
  });
});

describe('the sweep and the admin give room back', () => {
  it('an abandoned upload swept, an unfinished upload cancelled by the admin', async () => {
    const { client, user } = await signedInClient(server, 'sweeper-admin');
    const created = await client.post('/api/folders/', { title: 'Sweep', storage_limit_bytes: 100_000, file_limit: 5 });
    const folder = (await server.app.repos.folders.findOwned(user.id, created.body.id))!;
    const abandoned = await createTus(folder, 40_000);
    const cancelled = await createTus(folder, 40_000);
    quotaRefusal((await createTus(folder, 40_000)).response);

    const uploadId = cancelled.location!.split('/').pop();
    expect((await client.request('DELETE', `/api/folders/${folder.id}/uploads/${uploadId}`)).status).toBe(204);
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 40_000, files: 1 });

    server.clock.advance(server.config.upload.abandonAfterMs + 1);
    expect((await server.app.sweepUploads()).abandonedUploads).toBeGreaterThanOrEqual(1);
    expect(abandoned.location).not.toBeNull();
    expect(await ledgerOf(folder.id)).toEqual({ bytes: 0, files: 0 });
  });
});

describe('GET /api/storage', () => {
  it('sums the admin\'s folders and gives the disk store\'s free space, reserve and the folder defaults', async () => {
    const { client, user } = await signedInClient(server, 'storage-admin');
    const a = await client.post('/api/folders/', { title: 'A', storage_limit_bytes: null });
    await client.post('/api/folders/', { title: 'B' });
    const folder = (await server.app.repos.folders.findOwned(user.id, a.body.id))!;
    expect((await createTus(folder, 1234)).response.status).toBe(201);
    const other = await createUploadFolder(server);
    expect((await createTus(other, 999)).response.status).toBe(201);

    const response = await client.get('/api/storage');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      used_bytes: 1234,
      used_files: 1,
      folders: 2,
      store: 'disk',
      free_bytes: expect.any(Number),
      reserve_bytes: server.config.upload.reserveBytes,
      folder_defaults: { storage_limit_bytes: DEFAULT_LIMIT_MB * MiB, file_limit: DEFAULT_FILE_LIMIT, retention_days: null },
    });
    expect(response.body.free_bytes).toBeGreaterThan(0);
    expect((await server.client().get('/api/storage')).status).toBe(401);
  });
});
