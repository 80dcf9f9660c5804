// Graceful shutdown in one process (server/lifecycle/graceful-shutdown.ts), driven as the stop
// signal drives it: readyz turns 503 first while the API still answers; an upload that finishes
// within the grace time is stored whole; one still streaming at the cut time is cut, and what it
// wrote is on disk: a server started again on the same data reports exactly that offset, and
// the upload continues from it. (tests/server/sigterm-upload.test.ts does the same to a real
// process with the command-line upload and SIGTERM.)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shutDownGracefully } from '../../server/lifecycle/graceful-shutdown.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, fakeCiphertext, MultipartBody, postMultipart, tusCreate, tusHead, tusPatch, uploadPath } from './upload-helpers.ts';

const MiB = 1024 * 1024;
const dirs: string[] = [];
const servers: TestServer[] = [];

afterEach(async () => {
  // Latest first: a server started again shares the first one's PostgreSQL schema, which the first drops.
  for (const server of servers.splice(0).reverse()) await server.close().catch(() => {});
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function sharedDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealdrop-shutdown-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, sameDatabaseAs?: TestServer): Promise<TestServer> {
  const server = await startServer({ env: { DATA_DIR: dataDir }, sameDatabaseAs });
  servers.push(server);
  return server;
}

/** A server on `dataDir` with an upload folder, and an uploader who has passed its link's gates. */
async function uploaderOn(dataDir: string) {
  const server = await start(dataDir);
  const folder = await createUploadFolder(server);
  const client = server.client();
  await client.get(uploadPath(folder, '/status'));
  const cookies = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return { server, folder, client, cookies, csrf: client.csrfToken! };
}

/**
 * A PATCH whose body arrives slowly: `first` is written at once, the rest only when `sendRest` is
 * called. Resolves `answered` with the status, or null when the connection was cut.
 */
function slowPatch(server: TestServer, location: string, cookies: string, csrf: string, offset: number, body: Buffer, first: number) {
  const url = new URL(server.baseUrl + location);
  let resolveAnswered!: (status: number | null) => void;
  const answered = new Promise<number | null>((resolve) => (resolveAnswered = resolve));
  const request = http.request(
    {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(body.length),
        cookie: cookies,
        'x-csrftoken': csrf,
      },
    },
    (response) => {
      response.resume();
      resolveAnswered(response.statusCode ?? null);
    },
  );
  request.on('error', () => resolveAnswered(null));
  request.write(body.subarray(0, first));
  return { answered, sendRest: () => request.end(body.subarray(first)) };
}

describe('graceful shutdown', () => {
  it('drains (readyz 503, the API still answers), lets a finishing upload end, cuts a stalled one at its flushed offset; the upload resumes after a restart', async () => {
    const dataDir = sharedDataDir();
    const { server, folder, client, cookies, csrf } = await uploaderOn(dataDir);

    const plainSize = 12 * MiB;
    const stalledBody = fakeCiphertext(server, plainSize);
    const finishingBody = fakeCiphertext(server, plainSize);
    const stalled = (await tusCreate(client, folder, stalledBody.length, { filename: 'stalled.bin', plainSize })).headers.get('location')!;
    const finishing = (await tusCreate(client, folder, finishingBody.length, { filename: 'finishing.bin', plainSize })).headers.get('location')!;

    const written = 3 * MiB + 12_345;
    const stalledPatch = slowPatch(server, stalled, cookies, csrf, 0, stalledBody, written);
    const finishingPatch = slowPatch(server, finishing, cookies, csrf, 0, finishingBody, MiB);
    await expect.poll(() => fs.statSync(path.join(dataDir, 'blobs', 'uploads', stalled.split('/').pop()!)).size).toBe(written);
    // Each PATCH is authorised (a database round trip) before its handler counts it.
    await expect.poll(() => server.app.lifecycle.uploads.count).toBe(2);

    const exits: number[] = [];
    const shutdown = shutDownGracefully(server.app, { drainMs: 400, graceMs: 4_000 }, { exit: (code) => exits.push(code) });
    // Draining: not ready, but still serving.
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('draining');
    expect((await client.get(uploadPath(folder, '/status'))).status).toBe(200);
    // One upload finishes within the grace time and is answered normally.
    finishingPatch.sendRest();
    expect(await finishingPatch.answered).toBe(204);
    // The other never sends the rest: it is cut, and the process is done before its grace time.
    expect(await stalledPatch.answered).toBeNull();
    await shutdown;
    expect(exits).toEqual([0]);
    expect(server.app.lifecycle.uploads.count).toBe(0);

    // Started again on the same data: the cut upload's offset is what it had written, and it goes on from there.
    const again = await start(dataDir, server);
    const resumed = again.client();
    await resumed.get(uploadPath(folder, '/status'));
    const head = await tusHead(resumed, stalled);
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('upload-offset'))).toBe(written);
    expect(Number((await tusHead(resumed, finishing)).headers.get('upload-offset'))).toBe(finishingBody.length);
    const rest = await tusPatch(resumed, stalled, written, stalledBody.subarray(written));
    expect(rest.status).toBe(204);
    expect(fs.readFileSync(path.join(dataDir, 'blobs', 'uploads', stalled.split('/').pop()!)).equals(stalledBody)).toBe(true);
  });

  it('a close without a stop signal cuts a streaming upload at once (tests and the admin CLI do not wait)', async () => {
    const { server, folder, client, cookies, csrf } = await uploaderOn(sharedDataDir());
    const body = fakeCiphertext(server, 4 * MiB);
    const location = (await tusCreate(client, folder, body.length, { filename: 'a.bin', plainSize: 4 * MiB })).headers.get('location')!;
    const patch = slowPatch(server, location, cookies, csrf, 0, body, MiB);
    await expect.poll(() => server.app.lifecycle.uploads.count).toBe(1);
    await server.app.close();
    expect(await patch.answered).toBeNull();
  });

  it('cuts at once an upload that reaches its handler after the cut, so it cannot hold the close open', async () => {
    const dataDir = sharedDataDir();
    const { server, folder, client, cookies, csrf } = await uploaderOn(dataDir);
    const body = fakeCiphertext(server, 4 * MiB);
    const location = (await tusCreate(client, folder, body.length, { filename: 'late.bin', plainSize: 4 * MiB })).headers.get('location')!;
    // The cut has happened (nothing was in flight); this PATCH was still being authorised then.
    const outcome = await server.app.lifecycle.uploads.finishOrCut(Date.now(), Date.now());
    expect(outcome).toEqual({ finished: 0, cut: 0, unsettled: 0 });
    const late = slowPatch(server, location, cookies, csrf, 0, body, MiB);
    expect(await late.answered).toBeNull();
    expect(server.app.lifecycle.uploads.count).toBe(0);
    expect(fs.statSync(path.join(dataDir, 'blobs', 'uploads', location.split('/').pop()!)).size).toBe(0);
    // A one-request multipart upload likewise: its connection is closed and no file is stored.
    const multipart = new MultipartBody().files([{ name: 'late.txt', data: Buffer.from('late') }]);
    await expect(postMultipart(client, uploadPath(folder), multipart)).rejects.toThrow(TypeError);
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    await server.app.close();
  });
});
