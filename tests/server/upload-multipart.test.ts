// The spec's one-request multipart upload over real HTTP: files streamed into the blob store,
// records only for complete files, names and paths kept (unicode, quotes, nested folders),
// mismatched arrays, malformed bodies, the size limit, and a client that disconnects mid-file.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './files-fixtures.ts';
import { startServer, type TestServer } from './harness.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  MultipartBody,
  postMultipart,
  sendRaw,
  sha256,
  uploadPath,
} from './upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  // A 1 MB limit stands in for 5120 MB, so the limit can be crossed in a test.
  server = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1' } });
});
afterAll(() => server.close());

function blobFiles(): string[] {
  const root = path.join(server.config.dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .sort();
}

async function readBlob(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await server.app.blobs.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('multipart upload', () => {
  it('stores every file of a nested folder and answers with the Upload result', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const files = [
      { name: 'readme.txt', relativePath: '.', data: fakeCiphertext(server, 5) },
      { name: 'Grüße "quoted" ☃.txt', relativePath: 'Project/Ünïcode "dir"', data: fakeCiphertext(server, 300_000) },
      { name: "it's.bin", relativePath: 'Project/deep/er', data: fakeCiphertext(server, 0) },
    ];
    const response = await postMultipart(client, uploadPath(folder), new MultipartBody().files(files));
    expect(response.status).toBe(200);
    expect(response.body.failed_files).toEqual([]);
    expect(response.body.successful_files).toEqual([
      { filename: 'readme.txt', original_raw_name_from_client: 'readme.txt', path: '.', size: 5, id: expect.any(Number) },
      {
        filename: 'Grüße "quoted" ☃.txt',
        original_raw_name_from_client: 'Grüße %22quoted%22 ☃.txt',
        path: 'Project/Ünïcode "dir"',
        size: 300_000,
        id: expect.any(Number),
      },
      { filename: "it's.bin", original_raw_name_from_client: "it's.bin", path: 'Project/deep/er', size: 0, id: expect.any(Number) },
    ]);

    const records = await server.app.repos.files.listForFolder(folder.id);
    expect(records).toHaveLength(3);
    for (const [index, record] of records.entries()) {
      const sent = files[index]!;
      expect(record.originalFilename).toBe(sent.name);
      expect(record.relativePath).toBe(sent.relativePath);
      expect(record.fileHash).toBe(sha256(sent.data));
      expect(await readBlob(record.blobKey)).toEqual(sent.data);
      // stored_filename: first segment dropped by the reader, middle segments are the directory.
      const segments = record.storedFilename.split('/');
      expect(segments.slice(1).join('/')).toBe(sent.relativePath === '.' ? sent.name : `${sent.relativePath}/${sent.name}`);
    }
  });

  it('answers a mismatch of the per-file arrays with the spec text and keeps nothing', async () => {
    const folder = await createUploadFolder(server);
    const body = new MultipartBody()
      .file('files', 'a.txt', fakeCiphertext(server, 10))
      .file('files', 'b.txt', fakeCiphertext(server, 10))
      .field('encrypted_keys', 'a2V5').field('encrypted_keys', 'a2V5')
      .field('encryption_ivs', 'aXY=')
      .field('file_hashes', sha256('a')).field('file_hashes', sha256('b'));
    const before = blobFiles();
    const response = await postMultipart(server.client(), uploadPath(folder), body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'Mismatch in lengths of file data arrays provided for upload', code: 'ARRAY_LENGTH_MISMATCH' });
    expect(blobFiles()).toEqual(before);
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
  });

  it('refuses a malformed multipart body and a request that is not multipart', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const body = new MultipartBody().files([{ name: 'a.txt', data: fakeCiphertext(server, 10) }]);
    const truncated = body.build(false).subarray(0, 120);
    const malformed = await sendRaw(client, 'POST', uploadPath(folder), truncated, { 'content-type': body.contentType });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ detail: 'Malformed multipart request.', code: 'MALFORMED_MULTIPART' });

    const json = await client.post(uploadPath(folder), { files: [] });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ detail: 'The upload must be a multipart/form-data request.', code: 'NOT_MULTIPART' });

    const empty = await postMultipart(client, uploadPath(folder), new MultipartBody().field('relative_paths', '.'));
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ detail: 'No files were provided.', code: 'NO_FILES' });
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
  });

  it('refuses a file over the limit while it streams, keeping no bytes of the request', async () => {
    const folder = await createUploadFolder(server);
    const limit = server.app.uploads.sizes.encryptedLength(1024 * 1024);
    const before = blobFiles();
    // Files after the oversized one too: the refusal must not wait on parts that follow it.
    const body = new MultipartBody().files([
      { name: 'small.txt', data: fakeCiphertext(server, 10) },
      { name: 'huge.bin', data: Buffer.alloc(limit + 1) },
      { name: 'after.txt', data: fakeCiphertext(server, 20) },
    ]);
    const response = await postMultipart(server.client(), uploadPath(folder), body);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'File too large (max 1 MB)', code: 'FILE_TOO_LARGE' });
    expect(blobFiles()).toEqual(before);
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);

    const exact = await postMultipart(
      server.client(),
      uploadPath(folder),
      new MultipartBody().files([{ name: 'max.bin', data: fakeCiphertext(server, 1024 * 1024) }]),
    );
    expect(exact.status).toBe(200);
    expect(exact.body.successful_files[0].size).toBe(1024 * 1024);
  });

  it('reports files with bad values as failed and stores the others', async () => {
    const folder = await createUploadFolder(server);
    const good = fakeCiphertext(server, 10);
    const response = await postMultipart(
      server.client(),
      uploadPath(folder),
      new MultipartBody().files([
        { name: 'good.txt', data: good },
        { name: 'nohash.txt', data: fakeCiphertext(server, 10), hash: 'not-a-hash' },
        { name: 'climb.txt', data: fakeCiphertext(server, 10), relativePath: '../etc' },
        { name: 'torn.bin', data: Buffer.alloc(5) },
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.body.successful_files.map((f: { filename: string }) => f.filename)).toEqual(['good.txt']);
    expect(response.body.failed_files).toEqual([
      { filename: 'nohash.txt', original_raw_name_from_client: 'nohash.txt', path: '.', size: 10, error: 'Missing or invalid file hash' },
      { filename: 'climb.txt', original_raw_name_from_client: 'climb.txt', path: '../etc', size: 10, error: 'Invalid relative path' },
      { filename: 'torn.bin', original_raw_name_from_client: 'torn.bin', path: '.', size: 0, error: 'Size does not match the encrypted data' },
    ]);
    const records = await server.app.repos.files.listForFolder(folder.id);
    expect(records).toHaveLength(1);
    // Only the recorded file's blob is left of this request.
    expect(blobFiles().filter((key) => key.startsWith('files/'))).toContain(records[0]!.blobKey);
    const swept = await server.app.sweepUploads(server.clock.now() + 25 * 3_600_000);
    expect(swept.orphanBlobs).toBe(0);
  });

  it('echoes a filename with separators raw, and stores it as one safe name', async () => {
    const folder = await createUploadFolder(server);
    const response = await postMultipart(
      server.client(),
      uploadPath(folder),
      new MultipartBody().files([
        { name: 'a/b\\c.txt', data: fakeCiphertext(server, 3) },
        { name: '../../etc/passwd', data: fakeCiphertext(server, 4), relativePath: 'docs' },
        { name: '..', data: fakeCiphertext(server, 5) },
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.body.successful_files).toEqual([
      { filename: 'a_b_c.txt', original_raw_name_from_client: 'a/b\\c.txt', path: '.', size: 3, id: expect.any(Number) },
      { filename: '.._.._etc_passwd', original_raw_name_from_client: '../../etc/passwd', path: 'docs', size: 4, id: expect.any(Number) },
    ]);
    expect(response.body.failed_files).toEqual([
      { filename: '..', original_raw_name_from_client: '..', path: '.', size: 5, error: 'Invalid file name' },
    ]);
    // The stored names have no separator of their own: "<uuid>/<directories>/<name>" stays parseable.
    const records = await server.app.repos.files.listForFolder(folder.id);
    expect(records.map((record) => record.storedFilename.split('/').slice(1).join('/'))).toEqual([
      'a_b_c.txt',
      'docs/.._.._etc_passwd',
    ]);
  });

  it('accepts declared plaintext sizes and checks them against the stored bytes', async () => {
    const folder = await createUploadFolder(server);
    const data = fakeCiphertext(server, 1000);
    const body = new MultipartBody().files([{ name: 'a.txt', data }, { name: 'b.txt', data }]);
    body.field('file_sizes', '1000').field('file_sizes', '999');
    const response = await postMultipart(server.client(), uploadPath(folder), body);
    expect(response.status).toBe(200);
    expect(response.body.successful_files.map((f: { size: number }) => f.size)).toEqual([1000]);
    expect(response.body.failed_files[0].error).toBe('Size does not match the encrypted data');
  });

  it('keeps no record and, after the sweep, no bytes of a client that disconnects mid-file', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    await client.primeCsrf();
    const first = fakeCiphertext(server, 50_000);
    const body = new MultipartBody()
      .files([{ name: 'done.bin', data: first }])
      .file('files', 'cut.bin', Buffer.alloc(200_000, 1))
      .build(false);
    const cutAt = body.length - 100_000;
    const before = blobFiles();

    const url = new URL(server.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    socket.write(
      `POST ${uploadPath(folder)} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Content-Type: ${'multipart/form-data; boundary='}${body.subarray(2, body.indexOf('\r\n')).toString()}\r\n` +
        `Content-Length: ${body.length + 200}\r\nCookie: ${cookie}\r\nX-CSRFToken: ${client.csrfToken}\r\n\r\n`,
    );
    socket.write(body.subarray(0, cutAt));
    // The first file is stored and the second is being written when the connection drops.
    const added = () => blobFiles().filter((key) => !before.includes(key));
    // (The first file's rename into place may come a moment after the second file's write began:
    // its fsync runs beside the next file's bytes.)
    const oneStoredOneWriting = () => added().length === 2 && added().filter((key) => key.endsWith('.partial')).length === 1;
    expect(await eventually(async () => oneStoredOneWriting())).toBe(true);
    expect(added()).toEqual([
      expect.stringMatching(/^files\/\.[0-9a-f-]+\.partial$/),
      expect.stringMatching(/^files\/[0-9a-f-]+$/),
    ]);
    socket.destroy();
    // The server notices the drop and removes what that request stored.
    expect(await eventually(async () => blobFiles().length === before.length)).toBe(true);

    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    expect(blobFiles()).toEqual(before);
    await server.app.sweepUploads(server.clock.now() + 25 * 3_600_000);
    expect(blobFiles()).toEqual(before.filter((key) => !key.includes('.partial')));
  });
});
