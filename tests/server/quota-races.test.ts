// Folder limits (issue 28) hold against parallel uploaders spread over two server processes that
// share one database (SQLite file, or PostgreSQL under `npm run test:pg`), tested the way the
// attempt limits are (attempt-races.test.ts): bursts sent all at once, alternating between the
// processes. Exactly as many tus creations as fit are accepted; exactly as many one-file
// multipart requests as the file limit allows store their file; a mixed burst of both kinds never
// stores more bytes than the limit; and afterwards the folder's ledger equals what it holds, with
// no claim and no blob left over from the refused requests.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from './harness.ts';
import { TestClient, type TestResponse } from './http-client.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { createUploadFolder, fakeCiphertext, MultipartBody, postMultipart, tusCreate, uploadPath } from './upload-helpers.ts';

const KiB = 1024;
let server: TestServer;
let peer: PeerProcess;

beforeAll(async () => {
  server = await startServer({ env: { UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
  peer = await startPeerProcess(server);
}, 60_000);

afterAll(async () => {
  await peer?.stop();
  await server?.close();
});

const processes = () => [server.baseUrl, peer.baseUrl];

/** `count` requests sent at once, alternating between the two processes; none may fail with 5xx. */
async function burst(count: number, send: (client: TestClient, index: number) => Promise<TestResponse>): Promise<TestResponse[]> {
  const urls = processes();
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => send(new TestClient(urls[i % urls.length]!), i)));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((status) => status >= 500), `statuses ${statuses.join(',')}`).toEqual([]);
  return responses;
}

function codeOf(response: TestResponse): string | undefined {
  const body = typeof response.body === 'string' && response.body.startsWith('{') ? JSON.parse(response.body) : response.body;
  return (body as { code?: string } | undefined)?.code;
}

/** The ledger equals the files and uploads the folder holds, and no request left a claim behind. */
async function holdings(folder: Folder) {
  const usage = await server.app.repos.folderUsage.usageOf(folder.id);
  const files = await server.app.repos.files.listForFolder(folder.id);
  const uploads = await server.app.repos.uploadSessions.listForFolder(folder.id, 1000);
  const held = {
    bytes: files.reduce((sum, file) => sum + file.fileSize, 0) + uploads.reduce((sum, upload) => sum + upload.plainSize, 0),
    files: files.length + uploads.length,
  };
  expect(usage).toEqual(held);
  expect(await server.app.repos.folderUsage.recount(folder.id)).toEqual(held);
  return { ...held, fileRecords: files };
}

function storedBlobs(): number {
  const dir = path.join(server.config.dataDir, 'blobs', 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.startsWith('.')).length : 0;
}

function oneFileBody(plainSize: number, n: number): MultipartBody {
  return new MultipartBody().files([{ name: `file-${n}.bin`, data: fakeCiphertext(server, plainSize) }]);
}

describe('folder limits across two processes', () => {
  it('accepts exactly as many tus creations as the storage limit holds', async () => {
    const size = 100 * KiB;
    const folder = await createUploadFolder(server, { storageLimitBytes: 10 * size + size / 2 });
    const responses = await burst(24, (client, i) =>
      tusCreate(client, folder, server.app.uploads.sizes.encryptedLength(size), { filename: `t${i}.bin`, plainSize: size }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s !== 201)).toEqual(Array(14).fill(413));
    expect(new Set(responses.filter((r) => r.status === 413).map(codeOf))).toEqual(new Set(['FOLDER_QUOTA_EXCEEDED']));
    expect(await holdings(folder)).toMatchObject({ bytes: 10 * size, files: 10 });
  });

  it('stores exactly as many one-file multipart requests as the file limit allows', async () => {
    const folder = await createUploadFolder(server, { fileLimit: 5 });
    const blobsBefore = storedBlobs();
    const responses = await burst(20, (client, i) => postMultipart(client, uploadPath(folder), oneFileBody(2 * KiB, i)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 200)).toEqual(Array(15).fill(413));
    const held = await holdings(folder);
    expect(held.files).toBe(5);
    // The refused requests kept nothing: only the five stored files have blobs.
    expect(storedBlobs() - blobsBefore).toBe(5);
  });

  it('never stores more bytes than the limit in a mixed burst of multipart and tus uploaders', async () => {
    const size = 512 * KiB;
    const limit = 5 * size + Math.floor(size / 3);
    const folder = await createUploadFolder(server, { storageLimitBytes: limit });
    const blobsBefore = storedBlobs();
    const responses = await burst(24, (client, i) =>
      i % 3 === 0
        ? tusCreate(client, folder, server.app.uploads.sizes.encryptedLength(size), { filename: `t${i}.bin`, plainSize: size })
        : postMultipart(client, uploadPath(folder), oneFileBody(size, i)),
    );
    const accepted = responses.filter((r) => r.status === 200 || r.status === 201);
    const refused = responses.filter((r) => r.status !== 200 && r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 413));
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(5);
    const held = await holdings(folder);
    expect(held.bytes).toBeLessThanOrEqual(limit);
    expect(held.bytes).toBe(accepted.length * size);
    expect(storedBlobs() - blobsBefore).toBe(held.fileRecords.length);
  });
});
