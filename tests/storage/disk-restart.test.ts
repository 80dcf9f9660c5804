// The admin's own writes on a full disk after a restart, on a real small file system (a tmpfs the
// test mounts holds DATA_DIR: SQLite and the blobs on one disk). A server stops while the disk has
// a little more free space than the reserve, a new server starts on the same data directory, and
// another program fills the disk to its last byte. Sign-in, sign-out, deleting a file and the sweep
// must each work, or answer 507 DISK_FULL with its message: never a 500. The ballast the first
// server wrote is the room they need, so the new server must recognise it as its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BALLAST_NAME } from '../../server/storage/ballast.ts';
import { DISK_FULL_DETAIL, DiskFullError } from '../../server/storage/storage-errors.ts';
import { startServer, type TestServer } from '../server/harness.ts';
import type { TestClient, TestResponse } from '../server/http-client.ts';
import { createFolderOf, fakeCiphertext, MultipartBody, postMultipart, sameSessionOn, tusCreate, tusPatch, uploadPath } from '../server/upload-helpers.ts';
import { fillDisk, MiB, mountSmallDisk } from './small-disk.ts';

const RESERVE_MB = 8;
const OWNER = 'owner';
const OWNER_PASSWORD = 'owner password';
const disk = mountSmallDisk(48, 'sealdrop-restart-');
const servers: TestServer[] = [];
const logLines: string[] = [];
/** A file the first test stores and does not delete, for the second. */
let keptFileId: number | null = null;

async function start(sameDatabaseAs?: TestServer): Promise<TestServer> {
  const server = await startServer({
    env: {
      DATA_DIR: disk.mountPoint,
      STORAGE_RESERVE_MB: String(RESERVE_MB),
      UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
      FOLDER_STORAGE_LIMIT_MB: '0',
      FOLDER_FILE_LIMIT: '0',
      LOG_LEVEL: 'warn',
    },
    logStream: { write: (line: string) => logLines.push(line) },
    ...(sameDatabaseAs ? { sameDatabaseAs } : {}),
  });
  servers.push(server);
  return server;
}

/** The request worked with `status`, or was refused with 507 DISK_FULL and its message; never a 500. */
function expectDoneOrDiskFull(response: TestResponse, status: number, what: string): void {
  const body = typeof response.body === 'string' ? JSON.parse(response.body) : response.body;
  if (response.status === 507) expect(body, what).toEqual({ detail: DISK_FULL_DETAIL, code: 'DISK_FULL' });
  else expect(response.status, `${what}: ${JSON.stringify(body)}`).toBe(status);
}

afterEach(() => {
  for (const name of fs.readdirSync(disk.mountPoint)) if (name.startsWith('other-program')) fs.rmSync(path.join(disk.mountPoint, name));
});

afterAll(async () => {
  // The last one first: on PostgreSQL the first server drops the schema they share.
  for (const server of servers.reverse()) await server.close();
  disk.unmount();
});

// skip-reason: needs a tmpfs of its own (root); only where mounting one is refused (see small-disk.ts).
describe.skipIf(disk.refused !== null)('a full disk after a restart (tmpfs holding DATA_DIR)', () => {
  it('a new server recognises the ballast left by the last one: at 0 bytes free, sign-in, sign-out, delete and the sweep work or answer 507, never 500', async () => {
    const first = await start();
    const owner = await first.createUser(OWNER, OWNER_PASSWORD);
    const folder = await createFolderOf(first, owner.id);
    const stored = await postMultipart(
      first.client(),
      uploadPath(folder),
      new MultipartBody().files([
        { name: 'one.bin', data: fakeCiphertext(first, MiB) },
        { name: 'two.bin', data: fakeCiphertext(first, MiB) },
      ]),
    );
    expect(stored.status).toBe(200);
    const fileIds = (stored.body.successful_files as Array<{ id: number }>).map((file) => file.id);
    keptFileId = fileIds[1]!;
    // An upload nobody finishes: the sweep's work after the restart.
    const uploader = first.client();
    const abandoned = await tusCreate(uploader, folder, first.app.uploads.sizes.encryptedLength(MiB), { filename: 'gone.bin', plainSize: MiB });
    expect(abandoned.status).toBe(201);
    expect((await tusPatch(uploader, abandoned.headers.get('location')!, 0, fakeCiphertext(first, MiB).subarray(0, 64 * 1024))).status).toBe(204);
    const ballast = path.join(disk.mountPoint, BALLAST_NAME);
    const ballastBytes = fs.statSync(ballast).size;
    expect(ballastBytes).toBe((RESERVE_MB / 2) * MiB);

    // Another program leaves the disk a little above the reserve, less than the reserve plus the
    // ballast: the new server has no reason to write a ballast of its own.
    fs.writeFileSync(path.join(disk.mountPoint, 'other-program-1.log'), Buffer.alloc(disk.freeBytes() - RESERVE_MB * MiB - ballastBytes / 2));
    await first.app.close();
    // A ballast write a crash cut short: room held too, released with the ballast.
    const partial = `${ballast}.partial-999999-00000000`;
    fs.writeFileSync(partial, Buffer.alloc(MiB / 2));
    const server = await start(first);
    expect(fs.existsSync(ballast)).toBe(true);

    fillDisk(path.join(disk.mountPoint, 'other-program-2.log'));
    expect(disk.freeBytes()).toBeLessThan(64 * 1024);

    const admin: TestClient = server.client();
    const signedIn = await admin.login(OWNER, OWNER_PASSWORD);
    expectDoneOrDiskFull(signedIn, 200, 'sign-in');
    // The ballast of the last run was the room: released before the sign-in wrote.
    expect(fs.existsSync(ballast)).toBe(false);
    expect(fs.existsSync(partial)).toBe(false);
    expect(logLines.some((line) => line.includes('released the ballast file'))).toBe(true);
    expect(signedIn.status).toBe(200);

    const deleted = await admin.post('/api/folders/files/delete', { file_ids: [fileIds[0]] });
    expectDoneOrDiskFull(deleted, 200, 'delete');
    expect(deleted.body).toEqual({ deleted: 1, errors: [] });

    server.clock.advance(25 * 3_600_000);
    const swept = await server.app.sweepUploads();
    expect(swept).toMatchObject({ ran: true, abandonedUploads: 1 });

    expectDoneOrDiskFull(await admin.post('/api/auth/logout'), 200, 'sign-out');
    expect((await admin.get('/api/auth/users/me')).status).toBe(401);
  }, 60_000);

  it('with no ballast left and the disk filled to 0 bytes again, each of sign-in, delete, sign-out and the sweep works or answers 507 DISK_FULL with its message, never 500', async () => {
    const previous = servers.at(-1)!;
    const signedIn = previous.client();
    expect((await signedIn.login(OWNER, OWNER_PASSWORD)).status).toBe(200);
    expect(keptFileId).not.toBeNull();
    const authSecret = await signedIn.authSecret(OWNER, OWNER_PASSWORD);
    await previous.app.close();
    const server = await start(servers[0]);
    const session = sameSessionOn(signedIn, server.baseUrl);
    // The ballast was spent (or never written), and the disk filled up again to its last byte.
    fs.rmSync(path.join(disk.mountPoint, BALLAST_NAME), { force: true });
    fillDisk(path.join(disk.mountPoint, 'other-program-3.log'));
    expect(disk.freeBytes()).toBeLessThan(64 * 1024);

    const answers: number[] = [];
    const admin = server.client();
    await admin.primeCsrf();
    const prelogin = await admin.post('/api/auth/prelogin', { username: OWNER });
    expectDoneOrDiskFull(prelogin, 200, 'prelogin');
    answers.push(prelogin.status);
    const signIn = await admin.request('POST', '/api/auth/token', { form: { username: OWNER, auth_secret: authSecret } });
    expectDoneOrDiskFull(signIn, 200, 'sign-in');
    answers.push(signIn.status);
    // The session of before the restart deletes, whatever the sign-in's outcome.
    const deleted = await session.post('/api/folders/files/delete', { file_ids: [keptFileId] });
    expectDoneOrDiskFull(deleted, 200, 'delete');
    answers.push(deleted.status);
    const signedOut = await session.post('/api/auth/logout');
    expectDoneOrDiskFull(signedOut, 200, 'sign-out');
    answers.push(signedOut.status);
    const swept = await server.app.sweepUploads().then(
      () => 'ran',
      (error: unknown) => error,
    );
    if (swept !== 'ran') expect(swept).toBeInstanceOf(DiskFullError);
    console.log(`no-ballast answers at 0 bytes free: ${answers.join(', ')}; sweep: ${swept === 'ran' ? 'ran' : 'DISK_FULL'}`);
  }, 60_000);
});
