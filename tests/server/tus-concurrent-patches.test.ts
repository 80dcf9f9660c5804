// Overlapping PATCHes for one tus upload on two processes (issue 26, defect 6): this test server
// and a second `node server/main.ts` on the same data (disk + the same SQLite file or PostgreSQL
// schema; with TEST_S3_ENDPOINT also both on one bucket). A PATCH that finds the upload busy on
// the other process must be refused (423, or 409 once the first has moved the offset), never
// write alongside it: exactly one PATCH is answered 204 and the stored bytes are exactly its bytes.
// Also the sequential repeats seen under load (a PATCH sent again on the other process after its
// answer was lost: the final one, a middle one, after a first PATCH that left a short tail in S3),
// and HEAD on either process never reporting less than an offset already acknowledged.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder } from '../../server/db/repositories/index.ts';
import { recordFormatSize } from '../../server/upload/format-size.ts';
import { uploadLeaseName } from '../../server/upload/tus-locker.ts';
import { freshBucket, s3Endpoint } from '../storage/s3-test-bucket.ts';
import { startServer, type TestServer } from './harness.ts';
import { type TestClient } from './http-client.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { createUploadFolder, sameSessionOn, sha256, slowTusPatch, tusCreate, tusHead, tusPatch, uploadPath } from './upload-helpers.ts';

const REPETITIONS = 10;

function suiteOn(store: 'disk' | 's3', plainSize: number) {
  const dataBytes = recordFormatSize.encryptedLength(plainSize);
  let server: TestServer;
  let peer: PeerProcess;
  let here: TestClient;
  let folder: Folder;

  beforeAll(async () => {
    const bucketEnv = store === 's3' ? (await freshBucket(s3Endpoint!, 'locks')).env : {};
    server = await startServer({ env: { ...bucketEnv, UPLOAD_MAX_FILE_MB: '64', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    peer = await startPeerProcess(server);
    folder = await createUploadFolder(server);
    here = server.client();
    await here.primeCsrf();
  }, 60_000);
  afterAll(async () => {
    await peer?.stop();
    await server?.close();
  });

  const baseFor = (side: 0 | 1) => (side === 0 ? server.baseUrl : peer.baseUrl);

  async function newUpload(): Promise<{ location: string; id: string }> {
    const created = await tusCreate(here, folder, dataBytes, { filename: 'raced.bin', plainSize });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    return { location, id: location.split('/').pop()! };
  }

  async function storedBytes(id: string): Promise<Buffer> {
    return Buffer.concat(await (await server.app.blobs.get(`uploads/${id}`)).toArray());
  }

  const there = () => sameSessionOn(here, peer.baseUrl);
  const offsetOn = async (client: TestClient, location: string) => Number((await tusHead(client, location)).headers.get('upload-offset'));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function completeAndCheck(id: string, expected: Buffer): Promise<void> {
    const completed = await here.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('x') }] });
    expect(completed.body.successful_files, JSON.stringify(completed.body)).toHaveLength(1);
    expect((await storedBytes(id)).equals(expected)).toBe(true);
  }

  it('refuses the final PATCH sent again 60-90 ms later on the other process (its answer was lost): one copy is stored and the upload completes', async () => {
    for (const delayMs of [60, 90]) {
      const { location, id } = await newUpload();
      const data = randomBytes(dataBytes);
      const split = dataBytes - Math.floor(dataBytes / 5);
      expect((await tusPatch(here, location, 0, data.subarray(0, split))).status).toBe(204);
      // The other process has seen the upload before, as a client behind a round-robin proxy lets it.
      expect(await offsetOn(there(), location)).toBe(split);
      const final = tusPatch(here, location, split, data.subarray(split));
      await pause(delayMs);
      const repeated = tusPatch(there(), location, split, data.subarray(split));
      const statuses = [(await final).status, (await repeated).status];
      expect(statuses.filter((status) => status === 204), `${delayMs} ms: ${statuses.join(', ')}`).toHaveLength(1);
      for (const status of statuses) expect([204, 409, 423]).toContain(status);
      expect(await offsetOn(here, location)).toBe(dataBytes);
      expect(await offsetOn(there(), location)).toBe(dataBytes);
      await completeAndCheck(id, data);
    }
  }, 60_000);

  it('refuses a middle PATCH sent again 90 ms later on the other process: the offset and the bytes are those of one copy', async () => {
    const { location, id } = await newUpload();
    const data = randomBytes(dataBytes);
    const [a, b] = [Math.floor(dataBytes / 3), Math.floor((2 * dataBytes) / 3)];
    expect((await tusPatch(here, location, 0, data.subarray(0, a))).status).toBe(204);
    expect(await offsetOn(there(), location)).toBe(a);
    // A refused PATCH may be answered before its body is sent, and the connection closed under it:
    // the client then sees a network error (0 here) instead of the status, as in the tests below.
    const middle = tusPatch(here, location, a, data.subarray(a, b)).catch(() => ({ status: 0 }));
    await pause(90);
    const repeated = tusPatch(there(), location, a, data.subarray(a, b)).catch(() => ({ status: 0 }));
    const statuses = [(await middle).status, (await repeated).status];
    expect(statuses.filter((status) => status === 204), statuses.join(', ')).toHaveLength(1);
    expect(await offsetOn(there(), location)).toBe(b);
    expect((await tusPatch(there(), location, b, data.subarray(b))).status).toBe(204);
    await completeAndCheck(id, data);
  }, 60_000);

  for (const bytes of ['the same bytes', 'different bytes'] as const) {
    it(`after an unaligned first PATCH (a short tail waiting as ".part" in S3), same-offset PATCHes 1-8 ms apart on two processes store one consistent sequence (${bytes}, ${REPETITIONS} times)`, async () => {
      const first = Math.floor(dataBytes / 3) + 5;
      for (let round = 0; round < REPETITIONS; round++) {
        const { location, id } = await newUpload();
        const head = randomBytes(first);
        expect((await tusPatch(here, location, 0, head)).status).toBe(204);
        const a = randomBytes(dataBytes - first);
        const b = bytes === 'the same bytes' ? a : randomBytes(dataBytes - first);
        const sending = slowTusPatch(baseFor(0), here, location, first, a, 4, 20).catch(() => 0);
        await pause(1 + (round % 8));
        const statuses = await Promise.all([sending, slowTusPatch(baseFor(1), here, location, first, b, 4, 20).catch(() => 0)]);
        const winners = statuses.filter((status) => status === 204);
        expect(winners, `round ${round}: ${statuses.join(', ')}`).toHaveLength(1);
        expect(await offsetOn(there(), location)).toBe(dataBytes);
        await completeAndCheck(id, Buffer.concat([head, statuses[0] === 204 ? a : b]));
      }
    }, 120_000);
  }

  it('never reports, on either process, an offset below one already acknowledged while a PATCH continues after a short tail', async () => {
    const { location, id } = await newUpload();
    const data = randomBytes(dataBytes);
    const first = Math.floor(dataBytes / 3) + 5;
    expect((await tusPatch(here, location, 0, data.subarray(0, first))).status).toBe(204);
    const rest = slowTusPatch(baseFor(0), here, location, first, data.subarray(first), 20, 100);
    const seen: number[] = [];
    let done = false;
    void rest.finally(() => (done = true));
    while (!done) {
      seen.push(await offsetOn(there(), location), await offsetOn(here, location));
      await pause(50);
    }
    expect(await rest).toBe(204);
    expect(Math.min(...seen), seen.join(', ')).toBeGreaterThanOrEqual(first);
    await completeAndCheck(id, data);
  }, 60_000);

  it('refuses a PATCH on the other process while the first is still writing; the first one\'s bytes are stored', async () => {
    const { location, id } = await newUpload();
    const first = randomBytes(dataBytes);
    const second = randomBytes(dataBytes);
    const slow = slowTusPatch(baseFor(0), here, location, 0, first, 8, 150);
    // Until the first process holds the upload's lease: a fixed pause lost that race on a loaded
    // machine (the second PATCH came first and the first one was the refused one).
    for (let waited = 0; !(await server.app.repos.taskLeases.isHeld(uploadLeaseName(id), Date.now())); waited += 20) {
      expect(waited, 'the first PATCH never took the lease').toBeLessThan(10_000);
      await pause(20);
    }
    // Refused before its body is read, the connection can be reset under the answer (0 here, seen
    // in CI with the S3 store), as in the tests above: the stored bytes below are the real check.
    const overlapping = await slowTusPatch(baseFor(1), here, location, 0, second, 1, 0).catch(() => 0);
    expect([409, 423, 0]).toContain(overlapping);
    expect(await slow).toBe(204);
    expect((await tusHead(here, location)).headers.get('upload-offset')).toBe(String(dataBytes));
    expect((await storedBytes(id)).equals(first)).toBe(true);
  });

  it('lets a PATCH finish while HEADs poll the upload on the same process, and answers each HEAD at once', async () => {
    // Longer than @tus/server's lock drain time (3 s): on main the first HEAD waited for the lock
    // and then cut the PATCH off (204 with a short offset), its unread body piling up in memory
    // (scripts/head-polling-rss.ts, docs/operations.md).
    const { location, id } = await newUpload();
    const data = randomBytes(dataBytes);
    const patching = slowTusPatch(baseFor(0), here, location, 0, data, 25, 200);
    const offsets: number[] = [];
    for (let i = 0; i < 8; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const asked = Date.now();
      const head = await tusHead(here, location);
      expect(head.status).toBe(200);
      expect(Date.now() - asked).toBeLessThan(1500);
      offsets.push(Number(head.headers.get('upload-offset')));
    }
    expect(await patching).toBe(204);
    expect([...offsets].sort((x, y) => x - y)).toEqual(offsets);
    expect((await tusHead(here, location)).headers.get('upload-offset')).toBe(String(dataBytes));
    expect((await storedBytes(id)).equals(data)).toBe(true);
  }, 30_000);

  for (const bytes of ['the same bytes', 'different bytes'] as const) {
    it(`stores one consistent sequence for simultaneous same-offset PATCHes on two processes (${bytes}, ${REPETITIONS} times)`, async () => {
      for (let round = 0; round < REPETITIONS; round++) {
        const { location, id } = await newUpload();
        const a = randomBytes(dataBytes);
        const b = bytes === 'the same bytes' ? a : randomBytes(dataBytes);
        const statuses = await Promise.all([
          slowTusPatch(baseFor(0), here, location, 0, a, 4, 20).catch(() => 0),
          slowTusPatch(baseFor(1), here, location, 0, b, 4, 20).catch(() => 0),
        ]);
        const winners = statuses.filter((status) => status === 204);
        expect(winners, `round ${round}: ${statuses.join(', ')}`).toHaveLength(1);
        for (const status of statuses) expect([204, 409, 423, 0]).toContain(status);
        const expected = statuses[0] === 204 ? a : b;
        expect((await tusHead(here, location)).headers.get('upload-offset')).toBe(String(dataBytes));
        const completed = await here.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('x') }] });
        expect(completed.body.successful_files).toHaveLength(1);
        expect((await storedBytes(id)).equals(expected), `round ${round}`).toBe(true);
      }
    }, 120_000);
  }
}

describe('overlapping PATCHes on two processes, disk store', () => suiteOn('disk', 2_000_000));

const onS3 = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one
// Over one S3 part and a short tail: the case that stored bytes out of order.
onS3('overlapping PATCHes on two processes, S3 store', () => suiteOn('s3', 9 * 1024 * 1024));

