// The free-space reserve holds for several processes on one data directory (a tmpfs the test
// mounts holds DATA_DIR; the database is SQLite on it, or PostgreSQL under `npm run test:pg`):
// two server processes, parallel resumable uploads spread over both, that together would cut into
// the reserve. What they write together stays within the room above the reserve, the rest are
// refused with the usual 507 STORAGE_FULL (keeping what they wrote), and no claim is left behind.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from '../server/harness.ts';
import { TestClient, type TestResponse } from '../server/http-client.ts';
import { startPeerProcess, type PeerProcess } from '../server/peer-process.ts';
import { createFolderOf, fakeCiphertext, MultipartBody, postMultipart, sameSessionOn, slowTusPatch, tusCreate, tusHead, tusPatch, uploadPath } from '../server/upload-helpers.ts';
import { MiB, mountSmallDisk } from './small-disk.ts';

const RESERVE_MB = 8;
const disk = mountSmallDisk(96, 'sealdrop-shared-reserve-');
let server: TestServer;
let peer: PeerProcess;
let folder: Folder;

function bodyOf(response: TestResponse): { detail?: string; code?: string } {
  return typeof response.body === 'string' && response.body.startsWith('{') ? JSON.parse(response.body) : response.body;
}

// skip-reason: needs a tmpfs of its own (root); only where mounting one is refused (see small-disk.ts).
describe.skipIf(disk.refused !== null)('the free-space reserve shared by two processes (tmpfs holding DATA_DIR)', () => {
  beforeAll(async () => {
    server = await startServer({
      env: {
        DATA_DIR: disk.mountPoint,
        STORAGE_RESERVE_MB: String(RESERVE_MB),
        UPLOAD_MAX_FILE_MB: '64',
        UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
        FOLDER_STORAGE_LIMIT_MB: '0',
        FOLDER_FILE_LIMIT: '0',
      },
    });
    peer = await startPeerProcess(server);
    const owner = await server.createUser('owner', 'owner password');
    folder = await createFolderOf(server, owner.id);
  }, 60_000);

  // Whatever a test left of the other program's files (a failed one too) goes before the next.
  afterEach(() => {
    for (const name of fs.readdirSync(disk.mountPoint)) if (name.startsWith('other-program')) fs.rmSync(path.join(disk.mountPoint, name));
  });

  afterAll(async () => {
    await peer?.stop();
    await server?.close();
    disk.unmount();
  });

  it('parallel PATCHes on two processes together write no more than the room above the reserve; the rest answer 507 STORAGE_FULL', async () => {
    const room = 12 * MiB;
    const filler = path.join(disk.mountPoint, 'other-program.log');
    fs.writeFileSync(filler, Buffer.alloc(disk.freeBytes() - RESERVE_MB * MiB - room));
    // Eight uploads of 6 MiB, created on alternate processes: each fits the room at its creation,
    // together they need 48 MiB.
    const uploads = [];
    for (let n = 0; n < 8; n++) {
      const uploader = new TestClient(n % 2 === 0 ? server.baseUrl : peer.baseUrl);
      const data = fakeCiphertext(server, 6 * MiB);
      const created = await tusCreate(uploader, folder, data.length, { filename: `parallel-${n}.bin`, plainSize: 6 * MiB });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      uploads.push({ uploader, data, location: created.headers.get('location')! });
    }
    const freeBefore = disk.freeBytes();

    // All at once, each PATCH to the process that did not create its upload, its body in pieces
    // (uploaders on ordinary links): every writer asks for room before the others' bytes are on disk.
    const statuses = await Promise.all(
      uploads.map(({ uploader, data, location }, n) => slowTusPatch(n % 2 === 0 ? peer.baseUrl : server.baseUrl, uploader, location, 0, data, 6, 40)),
    );
    expect(statuses.every((status) => status === 204 || status === 507), statuses.join(',')).toBe(true);
    expect(statuses).toContain(507);
    let written = 0;
    for (const { uploader, location } of uploads) written += Number((await tusHead(uploader, location)).headers.get('upload-offset'));
    console.log(`shared reserve: room ${room / MiB} MiB, written ${(written / MiB).toFixed(2)} MiB by 8 PATCHes over 2 processes, statuses ${statuses.join(',')}`);
    // What they wrote together fits the room; the reserve stayed free (less what the database wrote meanwhile).
    expect(written).toBeLessThanOrEqual(room);
    expect(written).toBeGreaterThan(0);
    expect(freeBefore - disk.freeBytes()).toBeLessThanOrEqual(room + MiB);
    expect(disk.freeBytes()).toBeGreaterThanOrEqual(RESERVE_MB * MiB - MiB);
    // Every writer gave its claim back.
    expect(await server.app.repos.diskSpaceClaims.claimed(Date.now())).toBe(0);
    // A refused upload resumes where it stopped: refused again with the usual answer when the rest
    // does not fit what is left of the room, stored when it does.
    const offsets = await Promise.all(uploads.map(async ({ uploader, location }) => Number((await tusHead(uploader, location)).headers.get('upload-offset'))));
    const least = offsets.indexOf(Math.min(...offsets.filter((_, n) => statuses[n] === 507)));
    const refused = uploads[least]!;
    const rest = refused.data.length - offsets[least]!;
    const fits = rest <= (await server.app.uploads.space.room());
    const again = await tusPatch(sameSessionOn(refused.uploader, peer.baseUrl), refused.location, offsets[least]!, refused.data.subarray(offsets[least]!));
    if (fits) expect(again.status).toBe(204);
    else {
      expect(again.status).toBe(507);
      expect(bodyOf(again)).toEqual({ detail: expect.any(String), code: 'STORAGE_FULL' });
    }

    for (const { uploader, location } of uploads) {
      expect((await uploader.request('DELETE', location, { headers: { 'tus-resumable': '1.0.0' } })).status).toBe(204);
    }
    fs.rmSync(filler);
  }, 120_000);

  it('parallel multipart requests on two processes store no more than the room above the reserve; the rest answer 507 STORAGE_FULL and store nothing', async () => {
    const room = 10 * MiB;
    const filler = path.join(disk.mountPoint, 'other-program-multipart.log');
    fs.writeFileSync(filler, Buffer.alloc(disk.freeBytes() - RESERVE_MB * MiB - room));
    const files = Array.from({ length: 6 }, () => fakeCiphertext(server, 3 * MiB));
    const answers = await Promise.all(
      files.map((data, n) =>
        postMultipart(new TestClient(n % 2 === 0 ? server.baseUrl : peer.baseUrl), uploadPath(folder), new MultipartBody().files([{ name: `m-${n}.bin`, data }])),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 507), statuses.join(',')).toBe(true);
    expect(statuses).toContain(507);
    for (const answer of answers.filter((a) => a.status === 507)) expect(bodyOf(answer)).toEqual({ detail: expect.any(String), code: 'STORAGE_FULL' });
    const stored = statuses.filter((status) => status === 200).length * files[0]!.length;
    console.log(`shared reserve (multipart): room ${room / MiB} MiB, stored ${(stored / MiB).toFixed(2)} MiB, statuses ${statuses.join(',')}`);
    expect(stored).toBeLessThanOrEqual(room);
    expect(disk.freeBytes()).toBeGreaterThanOrEqual(RESERVE_MB * MiB - MiB);
    // Only the accepted files' blobs are on the disk.
    const blobs = fs.readdirSync(path.join(disk.mountPoint, 'blobs', 'files')).filter((name) => !name.startsWith('.'));
    expect(blobs).toHaveLength(statuses.filter((status) => status === 200).length);
    expect(await server.app.repos.diskSpaceClaims.claimed(Date.now())).toBe(0);
    fs.rmSync(filler);
  }, 120_000);
});
