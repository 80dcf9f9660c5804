// The resumable transport (tus 1.0) over real HTTP: creation with the size checked before any
// byte is stored, PATCH/HEAD resume, completion into a file record (only then), resuming across a
// server restart on the same DATA_DIR and database, a client vanishing mid-PATCH, and the sweep.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { eventually } from './files-fixtures.ts';
import { startServer } from './harness.ts';
import { HOUR, tusSuite } from './tus-suite.ts';
import { TestClient } from './http-client.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  sha256,
  tusCreate,
  tusHead,
  tusPatch,
  tusUploadAll,
  uploadPath,
} from './upload-helpers.ts';

const suite = tusSuite();
const { uploadFile } = suite;

async function complete(client: TestClient, folderPath: string, uploads: Array<{ upload_id: string; file_hash: string }>) {
  return client.post(`${folderPath}/complete`, { uploads });
}

describe('tus uploads', () => {
  it('creates, resumes with HEAD and PATCH, and completes into a file record', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const plainSize = 600_000;
    const data = fakeCiphertext(suite.server, plainSize);

    const created = await tusCreate(client, folder, data.length, {
      filename: 'Résumé "final".pdf',
      relativePath: 'Docs/2025',
      plainSize,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${uploadPath(folder, '/tus/')}[0-9a-f]{32}$`));
    const id = location.split('/').pop()!;

    const head0 = await tusHead(client, location);
    expect(head0.status).toBe(200);
    expect(head0.headers.get('upload-offset')).toBe('0');
    expect(head0.headers.get('upload-length')).toBe(String(data.length));
    expect(head0.headers.get('cache-control')).toBe('no-store');

    const half = 250_000;
    const first = await tusPatch(client, location, 0, data.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));
    expect((await tusHead(client, location)).headers.get('upload-offset')).toBe(String(half));
    // A PATCH at the wrong offset is refused and changes nothing.
    expect((await tusPatch(client, location, 10, data.subarray(10, 20))).status).toBe(409);

    // Not a file until completed: nothing listed for the admin while bytes arrive.
    expect(await suite.server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    const early = await complete(client, uploadPath(folder), [{ upload_id: id, file_hash: sha256('x') }]);
    expect(early.status).toBe(200);
    expect(early.body.successful_files).toEqual([]);
    expect(early.body.failed_files[0].error).toBe(`Upload incomplete: ${half} of ${data.length} bytes received`);

    const rest = await tusPatch(client, location, half, data.subarray(half));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(data.length));
    expect(await suite.server.app.repos.files.listForFolder(folder.id)).toEqual([]);

    const hash = sha256('the plaintext');
    const done = await complete(client, uploadPath(folder), [{ upload_id: id, file_hash: hash }]);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      successful_files: [
        {
          filename: 'Résumé "final".pdf',
          original_raw_name_from_client: 'Résumé "final".pdf',
          path: 'Docs/2025',
          size: plainSize,
          id: expect.any(Number),
          upload_id: id,
        },
      ],
      failed_files: [],
    });
    const [record] = await suite.server.app.repos.files.listForFolder(folder.id);
    expect(record).toMatchObject({
      originalFilename: 'Résumé "final".pdf',
      relativePath: 'Docs/2025',
      storedFilename: `${id}/Docs/2025/Résumé "final".pdf`,
      fileSize: plainSize,
      fileHash: hash,
      blobKey: `uploads/${id}`,
    });
    expect(fs.readFileSync(uploadFile(id))).toEqual(data);

    // Completing again answers with the same record; the upload itself is gone for tus.
    const again = await complete(client, uploadPath(folder), [{ upload_id: id, file_hash: hash }]);
    expect(again.body.successful_files[0].id).toBe(record!.id);
    expect((await tusHead(client, location)).status).toBe(404);
  });

  it('completes a batch with mixed outcomes, answering in request order', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const a = await tusUploadAll(client, folder, fakeCiphertext(suite.server, 10), { filename: 'a.txt', plainSize: 10 });
    const b = await tusUploadAll(client, folder, fakeCiphertext(suite.server, 20), { filename: 'b.txt', relativePath: 'sub', plainSize: 20 });
    const partial = await tusCreate(client, folder, suite.server.app.uploads.sizes.encryptedLength(30), { filename: 'c.txt', plainSize: 30 });
    const c = partial.headers.get('location')!.split('/').pop()!;
    const response = await complete(client, uploadPath(folder), [
      { upload_id: a.id, file_hash: sha256('a') },
      { upload_id: c, file_hash: sha256('c') },
      { upload_id: 'f'.repeat(32), file_hash: sha256('x') },
      { upload_id: b.id, file_hash: 'nothex' },
      { upload_id: b.id, file_hash: sha256('b').toUpperCase() },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.successful_files.map((f: { filename: string; path: string }) => [f.filename, f.path])).toEqual([
      ['a.txt', '.'],
      ['b.txt', 'sub'],
    ]);
    expect(response.body.failed_files.map((f: { filename: string; error: string }) => [f.filename, f.error])).toEqual([
      ['c.txt', `Upload incomplete: 0 of ${suite.server.app.uploads.sizes.encryptedLength(30)} bytes received`],
      ['', 'Upload not found'],
      ['b.txt', 'Missing or invalid file hash'],
    ]);
    const records = await suite.server.app.repos.files.listForFolder(folder.id);
    expect(records.map((r) => [r.originalFilename, r.fileHash])).toEqual([
      ['a.txt', sha256('a')],
      ['b.txt', sha256('b')],
    ]);
  });

  it('accepts the first bytes with the creation request (creation-with-upload)', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    await client.primeCsrf();
    const data = fakeCiphertext(suite.server, 1000);
    const response = await fetch(suite.server.baseUrl + uploadPath(folder, '/tus'), {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': `filename ${Buffer.from('x.txt').toString('base64')},encryptedKey a2V5,iv aXY=,plainSize ${Buffer.from('1000').toString('base64')}`,
        'content-type': 'application/offset+octet-stream',
        cookie: `csrftoken=${client.csrfToken}`,
        'x-csrftoken': client.csrfToken!,
      },
      body: new Uint8Array(data),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('upload-offset')).toBe(String(data.length));
  });

  it('refuses, before storing anything, a declared length over the limit or not matching plainSize', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const max = 1024 * 1024;
    const sizes = suite.server.app.uploads.sizes;
    const uploadsDir = path.join(suite.server.config.dataDir, 'blobs', 'uploads');
    const stored = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).sort() : []);
    const before = stored();
    const tooBig = await tusCreate(client, folder, sizes.encryptedLength(max + 1), { filename: 'a', plainSize: max + 1 });
    expect(tooBig.status).toBe(413);
    const overLimitLength = await tusCreate(client, folder, sizes.encryptedLength(max) + 1, { filename: 'a', plainSize: 5 });
    expect(overLimitLength.status).toBe(413);
    const mismatch = await tusCreate(client, folder, sizes.encryptedLength(100) + 1, { filename: 'a', plainSize: 100 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toBe('Upload-Length is not the encrypted size of plainSize\n');
    const noName = await tusCreate(client, folder, sizes.encryptedLength(5), { filename: '', plainSize: 5 });
    expect(noName.status).toBe(400);
    const noSize = await client.request('POST', uploadPath(folder, '/tus'), {
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': 'filename YQ==' },
    });
    expect(noSize.status).toBe(400);
    const deferred = await client.request('POST', uploadPath(folder, '/tus'), {
      headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
    });
    expect(deferred.status).toBe(400);
    expect(stored()).toEqual(before);
    // A PATCH beyond the declared length is refused too.
    const data = fakeCiphertext(suite.server, 10);
    const created = await tusCreate(client, folder, data.length, { filename: 'a', plainSize: 10 });
    const location = created.headers.get('location')!;
    expect((await tusPatch(client, location, 0, Buffer.concat([data, Buffer.alloc(1)]))).status).toBe(413);
  });

  it('treats an upload of another link as unknown', async () => {
    const mine = await createUploadFolder(suite.server);
    const theirs = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const { id } = await tusUploadAll(client, theirs, fakeCiphertext(suite.server, 10), { filename: 'a', plainSize: 10 });
    const foreign = uploadPath(mine, `/tus/${id}`);
    expect((await tusHead(client, foreign)).status).toBe(404);
    expect((await tusPatch(client, foreign, 0, Buffer.alloc(1))).status).toBe(404);
    const completed = await complete(client, uploadPath(mine), [{ upload_id: id, file_hash: sha256('a') }]);
    expect(completed.body.failed_files).toEqual([
      { filename: '', original_raw_name_from_client: '', path: '.', size: 0, error: 'Upload not found', upload_id: id },
    ]);
    expect(await suite.server.app.repos.files.listForFolder(mine.id)).toEqual([]);
  });

  it('lets the uploader cancel an upload (termination)', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const created = await tusCreate(client, folder, suite.server.app.uploads.sizes.encryptedLength(10), { filename: 'a', plainSize: 10 });
    const location = created.headers.get('location')!;
    const deleted = await client.request('DELETE', location, { headers: { 'tus-resumable': '1.0.0' } });
    expect(deleted.status).toBe(204);
    expect(fs.existsSync(uploadFile(location.split('/').pop()!))).toBe(false);
    expect(await suite.server.app.repos.uploadSessions.find(location.split('/').pop()!)).toBeUndefined();
  });

  it('continues an upload after the server restarts on the same data', async () => {
    // A server of its own, since this test stops it.
    const own = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1' } });
    let restarted: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const folder = await createUploadFolder(own);
      const client = own.client();
      const plainSize = 900_000;
      const data = fakeCiphertext(own, plainSize);
      const created = await tusCreate(client, folder, data.length, { filename: 'big.iso', plainSize });
      const location = created.headers.get('location')!;
      const id = location.split('/').pop()!;
      expect((await tusPatch(client, location, 0, data.subarray(0, 400_000))).status).toBe(204);
      // A second PATCH is still streaming when the server stops.
      const streaming = http.request(own.baseUrl + location, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '400000',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(data.length - 400_000),
          cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-csrftoken': client.csrfToken!,
        },
      });
      streaming.on('error', () => undefined);
      streaming.write(data.subarray(400_000, 600_000));
      // Stop only once the server holds those bytes (the PATCH itself is still open).
      const partial = path.join(own.config.dataDir, 'blobs', 'uploads', id);
      expect(await eventually(async () => fs.existsSync(partial) && fs.statSync(partial).size === 600_000)).toBe(true);

      // Stop the server (it does not wait for the upload) and start a new one on the same data.
      const stopping = Date.now();
      await own.app.close();
      expect(Date.now() - stopping).toBeLessThan(3000);
      streaming.destroy();
      restarted = await buildApp(own.config, { clock: own.clock.now });
      await restarted.listen({ port: 0, host: '127.0.0.1' });
      const port = (restarted.server.address() as { port: number }).port;
      const again = new TestClient(`http://127.0.0.1:${port}`);
      for (const [name, value] of client.cookies) again.cookies.set(name, value);

      const head = await tusHead(again, location);
      expect(head.status).toBe(200);
      // What arrived before the stop is kept.
      const cut = Number(head.headers.get('upload-offset'));
      expect(cut).toBe(600_000);
      expect((await tusPatch(again, location, cut, data.subarray(cut))).status).toBe(204);
      const done = await again.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('iso') }] });
      expect(done.body.successful_files).toHaveLength(1);
      const [record] = await restarted.repos.files.listForFolder(folder.id);
      expect(record!.fileSize).toBe(plainSize);
      expect(fs.readFileSync(path.join(own.config.dataDir, 'blobs', 'uploads', id))).toEqual(data);
    } finally {
      await restarted?.close();
      await own.close();
    }
  });

  it('keeps what arrived when a client vanishes mid-PATCH, lists nothing, and sweeps it once abandoned', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    await client.primeCsrf();
    const data = fakeCiphertext(suite.server, 800_000);
    const created = await tusCreate(client, folder, data.length, { filename: 'lost.bin', plainSize: 800_000 });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    await new Promise<void>((resolve) => {
      const request = http.request(suite.server.baseUrl + location, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(data.length),
          cookie: `csrftoken=${client.csrfToken}`,
          'x-csrftoken': client.csrfToken!,
        },
      });
      request.on('error', () => resolve());
      request.write(data.subarray(0, 300_000));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 300);
    });
    // The server notices the drop and keeps the bytes that arrived (a resume continues from them).
    await vi.waitFor(
      async () => {
        const head = await tusHead(client, location);
        expect(head.status).toBe(200);
        expect(head.headers.get('upload-offset')).toBe('300000');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(await suite.server.app.repos.files.listForFolder(folder.id)).toEqual([]);

    // Not yet abandoned: the sweep leaves it.
    const early = await suite.server.app.sweepUploads(suite.server.clock.now() + HOUR);
    expect(early.abandonedUploads).toBe(0);
    expect(fs.existsSync(uploadFile(id))).toBe(true);

    const swept = await suite.server.app.sweepUploads(suite.server.clock.now() + 25 * HOUR);
    expect(swept.abandonedUploads).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(uploadFile(id))).toBe(false);
    expect(await suite.server.app.repos.uploadSessions.find(id)).toBeUndefined();
    expect((await tusHead(client, location)).status).toBe(404);
    expect(await suite.server.app.repos.files.listForFolder(folder.id)).toEqual([]);
  });

  it('sweeps finished uploads that were never completed, and orphan blobs, but nothing recorded', async () => {
    const folder = await createUploadFolder(suite.server);
    const client = suite.server.client();
    const kept = await tusUploadAll(client, folder, fakeCiphertext(suite.server, 10), { filename: 'kept', plainSize: 10 });
    await complete(client, uploadPath(folder), [{ upload_id: kept.id, file_hash: sha256('k') }]);
    const forgotten = await tusUploadAll(client, folder, fakeCiphertext(suite.server, 10), { filename: 'forgotten', plainSize: 10 });
    const { Readable } = await import('node:stream');
    await suite.server.app.blobs.put('files/orphan-from-a-crash', Readable.from([Buffer.from('ciphertext')]));

    const report = await suite.server.app.sweepUploads(suite.server.clock.now() + 25 * HOUR);
    expect(report.abandonedUploads).toBeGreaterThanOrEqual(1);
    expect(report.orphanBlobs).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(uploadFile(forgotten.id))).toBe(false);
    expect(await suite.server.app.blobs.stat('files/orphan-from-a-crash')).toBeNull();
    expect(fs.existsSync(uploadFile(kept.id))).toBe(true);
    expect(await suite.server.app.repos.files.listForFolder(folder.id)).toHaveLength(1);
  });
});
