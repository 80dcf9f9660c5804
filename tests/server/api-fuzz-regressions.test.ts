// Defects the API fuzzer (api-fuzz.test.ts) found, each pinned by its shrunk counterexample. Most
// were 500s on PostgreSQL only, whose text cannot hold a NUL byte and whose integer ids stop at
// 2147483647 (SQLite takes both): the server suite runs against both databases, so these fail on
// the one that broke.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import { seedFile } from './files-fixtures.ts';
import { createUploadFolder, fakeCiphertext, MultipartBody, postMultipart, sha256, tusCreate, tusPatch, uploadPath } from './upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('NUL bytes the API fuzzer sent', () => {
  it('refuses a folder title or description with a NUL byte (422), on create and on update', async () => {
    const { client } = await signedInClient(server, 'nul_folders');
    const title = await client.post('/api/folders/', { title: '\u0000' });
    expect(title.status).toBe(422);
    expect(title.body.detail).toEqual([{ loc: ['body', 'title'], msg: 'Title cannot contain a NUL character' }]);
    const description = await client.post('/api/folders/', { title: 'Tax', description: 'line\u0000' });
    expect(description.status).toBe(422);
    expect(description.body.detail).toEqual([{ loc: ['body', 'description'], msg: 'Description cannot contain a NUL character' }]);

    const folder = await client.post('/api/folders/', { title: 'Tax', description: 'tabs\tand\nnewlines stay allowed' });
    expect(folder.status).toBe(201);
    const update = await client.put(`/api/folders/${folder.body.id}`, { title: 'a\u0000b' });
    expect(update.status).toBe(422);
    expect((await client.get(`/api/folders/${folder.body.id}`)).body.title).toBe('Tax');
  });

  it('refuses a typed username with a NUL byte in both login steps (422), not a failed query', async () => {
    const client = server.client();
    await client.primeCsrf();
    const login = await client.request('POST', '/api/auth/token', { form: { username: '\u0000correct horse', auth_secret: Buffer.alloc(32).toString('base64') } });
    expect(login.status).toBe(422);
    expect(login.body.detail).toEqual([{ loc: ['body', 'username'], msg: 'Username cannot contain a NUL character' }]);
    const code = await client.post('/api/auth/token/2fa', { username: 'alice\u0000', code: '123456' });
    expect(code.status).toBe(422);
    // An ordinary unknown name still gets the ordinary answer.
    expect((await client.login('nobody.here', 'some password')).status).toBe(401);
  });

  it('tus: drops NUL bytes from the file name and relative path, as multipart does, and completes the upload', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const data = fakeCiphertext(server, 10);
    // The shrunk counterexample: filename "!", relativePath "\u0000", plainSize 0.
    const shrunk = await tusCreate(client, folder, server.app.uploads.sizes.encryptedLength(0), { filename: '!', relativePath: '\u0000', plainSize: 0 });
    expect(shrunk.status).toBe(201);

    const created = await tusCreate(client, folder, data.length, { filename: 'a\u0000b.txt', relativePath: 'docs\u0000/x', plainSize: 10 });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect((await tusPatch(client, location, 0, data)).status).toBe(204);
    const completed = await client.post(uploadPath(folder, '/complete'), {
      uploads: [{ upload_id: location.split('/').pop(), file_hash: sha256('plaintext') }],
    });
    expect(completed.status).toBe(200);
    expect(completed.body.successful_files).toMatchObject([{ filename: 'ab.txt', path: 'docs/x', size: 10 }]);
    const [record] = await server.app.repos.files.listForFolder(folder.id);
    expect(record).toMatchObject({ originalFilename: 'ab.txt', relativePath: 'docs/x' });
  });
});

describe('ids past the database integer range the API fuzzer sent', () => {
  const tooBig = 2_147_483_648;

  it('refuses them in paths and bodies (422) on every route that looks an id up', async () => {
    const { client } = await signedInClient(server, 'big_ids');
    const folder = await client.post('/api/folders/', { title: 'Ids' });
    const file = await seedFile(server, folder.body.id);
    const link = await client.post('/api/download/links', { file_ids: [file.id] });
    expect(link.status).toBe(201);
    const outOfRange = (where: string, name: string, what: string) => ({ detail: [{ loc: [where, name], msg: `${what} id is out of range` }], code: 'VALIDATION_FAILED' });

    // The shrunk counterexample: GET /api/folders/download/2147483648.
    const download = await client.get(`/api/folders/download/${tooBig}`);
    expect(download.status).toBe(422);
    expect(download.body).toEqual(outOfRange('params', 'fileId', 'File'));
    for (const [method, path] of [
      ['GET', `/api/folders/${tooBig}`],
      ['PUT', `/api/folders/${tooBig}`],
      ['DELETE', `/api/folders/${tooBig}`],
      ['GET', `/api/folders/${tooBig}/files`],
    ]) {
      const response = await client.request(method!, path!, method === 'PUT' ? { json: { title: 'x' } } : {});
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(response.body).toEqual(outOfRange('params', 'id', 'Folder'));
    }
    expect((await client.get(`/api/download/links/folder/${tooBig}`)).body).toEqual(outOfRange('params', 'folderId', 'Folder'));
    expect((await client.get(`/api/download/${link.body.link_token}/file/${tooBig}`)).body).toEqual(outOfRange('params', 'fileId', 'File'));
    const deleted = await client.post('/api/folders/files/delete', { file_ids: [tooBig] });
    expect(deleted.body).toEqual({ detail: [{ loc: ['body', 'file_ids', 0], msg: 'File id is out of range' }], code: 'VALIDATION_FAILED' });
    const linked = await client.post('/api/download/links', { file_ids: [file.id, tooBig] });
    expect(linked.status).toBe(422);

    // The largest id still reads as "not found".
    expect((await client.get('/api/folders/2147483647')).status).toBe(404);
    expect((await client.get('/api/folders/download/2147483647')).status).toBe(404);
  });
});

describe('multipart failures the API fuzzer sent', () => {
  function multipartBlobs(): string[] {
    const dir = path.join(server.config.dataDir, 'blobs', 'files');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  }

  it('does not present an uploader_email that is not an address to the gate: 401, not a failed code lookup', async () => {
    const folder = await createUploadFolder(server, { requireEmail: true });
    const client = server.client();
    const before = multipartBlobs();
    // Was 400 "Malformed multipart request." on PostgreSQL (the NUL failed the code lookup).
    const body = new MultipartBody()
      .field('uploader_email', 'a\u0000@example.com')
      .field('verification_code', '123456')
      .files([{ name: 'x.bin', data: fakeCiphertext(server, 10) }]);
    const response = await postMultipart(client, uploadPath(folder), body);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'E-mail verification required.', code: 'EMAIL_VERIFICATION_REQUIRED' });
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    expect(multipartBlobs()).toEqual(before);
  });

  it('answers a failure of the database while recording an upload with 500, not "Malformed multipart request.", and keeps no blob', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const before = multipartBlobs();
    const files = server.app.repos.files;
    const createMany = files.createMany;
    files.createMany = () => Promise.reject(new Error('the database went away'));
    try {
      const response = await postMultipart(client, uploadPath(folder), new MultipartBody().files([{ name: 'x.bin', data: fakeCiphertext(server, 10) }]));
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ detail: 'Internal Server Error', code: 'INTERNAL' });
    } finally {
      files.createMany = createMany;
    }
    expect(multipartBlobs()).toEqual(before);
  });
});

describe('names of inherited members the API fuzzer sent', () => {
  it('answers 404 {code: NOT_FOUND} for /api/docs/valueOf and its kin, and serves the real assets', async () => {
    const client = server.client();
    // Was 500: the asset table was a plain object, so 'valueOf' found Object.prototype.valueOf.
    for (const name of ['valueOf', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await client.get(`/api/docs/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.body.code, name).toBe('NOT_FOUND');
    }
    expect((await client.get('/api/docs/start.js')).status).toBe(200);
  });
});
