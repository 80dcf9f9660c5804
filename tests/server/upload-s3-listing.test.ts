// How often a tus request lists an S3 upload's parts (issue 26, admin reads under load): ListParts
// answers are parsed on the event loop, about 40 ms of CPU at 640 parts (a 5 GiB file), so a
// request that lists twice holds the loop twice as long late in a large upload
// (docs/operations.md, "The admin's reads while uploads stream in"). A PATCH lists once (its offset
// check; the write reuses that listing under the same lock), a HEAD once, with or without a short
// tail waiting as "<id>.part" (a HEAD after completion asks once and learns the upload is whole).
//
// HEAD takes no lock, so a PATCH may store parts and remove or replace the short tail while a HEAD
// looks. A HEAD that listed the parts before such a PATCH and looked at the tail after it counted
// neither the tail's bytes nor the part that took them, and reported an offset below the one
// already acknowledged: seen once in a whole CI run (tus-concurrent-patches, S3). The second test
// answers a HEAD's listing only after a PATCH, so the race happens every time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshBucket, s3Endpoint } from '../storage/s3-test-bucket.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, fakeCiphertext, tusCreate, tusHead, tusPatch } from './upload-helpers.ts';

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

/** The S3 client the tus store sends its requests with. */
interface StoreClient {
  client: { listParts: (input: { PartNumberMarker?: string }) => Promise<unknown> };
}

suite('BLOB_STORE=s3: part listings per tus request', () => {
  let server: TestServer;
  let s3: StoreClient['client'];
  let originalListParts: StoreClient['client']['listParts'];
  beforeAll(async () => {
    const bucket = await freshBucket(s3Endpoint!, 'listing');
    server = await startServer({ env: { ...bucket.env, UPLOAD_MAX_FILE_MB: '64', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    s3 = (server.app.uploads.tusStorage.datastore as unknown as StoreClient).client;
    originalListParts = s3.listParts;
  }, 60_000);
  // Each test hooks the store's ListParts; the next one, passed or failed, starts from the real one.
  afterEach(() => {
    if (s3) s3.listParts = originalListParts;
  });
  afterAll(() => server?.close());

  it('lists the parts once per PATCH and once per HEAD, also with a short tail waiting', async () => {
    const listParts = originalListParts.bind(s3);
    let listings = 0;
    // ListParts requests sent, a listing's further pages not counted.
    s3.listParts = (input) => {
      if (input.PartNumberMarker === undefined) listings++;
      return listParts(input);
    };
    const folder = await createUploadFolder(server);
    const client = server.client();
    const plainSize = 20 * 1024 * 1024;
    const data = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, data.length, { filename: 'listed.bin', plainSize })).headers.get('location')!;
    const counted = async (request: () => Promise<{ status: number }>, status: number) => {
      listings = 0;
      expect((await request()).status).toBe(status);
      return listings;
    };
    const steps = [0, 6 * 1024 * 1024, 9 * 1024 * 1024, 16 * 1024 * 1024 + 3, data.length];
    const perPatch: number[] = [];
    const perHead: number[] = [];
    for (let i = 0; i + 1 < steps.length; i++) {
      perPatch.push(await counted(() => tusPatch(client, location, steps[i]!, data.subarray(steps[i]!, steps[i + 1]!)), 204));
      perHead.push(await counted(() => tusHead(client, location), 200));
    }
    // The last PATCH completes the upload: its completion lists once more to name the parts.
    expect(perPatch).toEqual([1, 1, 1, 2]);
    expect(perHead).toEqual([1, 1, 1, 1]);
  });

  it('never reports less than the acknowledged offset when its listing predates the PATCH', async () => {
    const listParts = originalListParts.bind(s3);
    const folder = await createUploadFolder(server);
    const client = server.client();
    const plainSize = 24 * 1024 * 1024;
    const data = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, data.length, { filename: 'raced.bin', plainSize })).headers.get('location')!;
    // A short tail only: no part is stored yet.
    const first = 3 * 1024 * 1024 + 5;
    expect((await tusPatch(client, location, 0, data.subarray(0, first))).status).toBe(204);

    // The next listing is answered only once the PATCH below has stored its parts (and replaced or
    // removed the tail).
    let listed!: () => void;
    const headListed = new Promise<void>((resolve) => (listed = resolve));
    let release!: () => void;
    const patchDone = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    s3.listParts = async (input) => {
      if (held || input.PartNumberMarker !== undefined) return listParts(input);
      held = true;
      const answer = await listParts(input);
      listed();
      await patchDone;
      return answer;
    };
    const head = tusHead(client, location);
    await headListed;
    const second = 14 * 1024 * 1024 + 7;
    expect((await tusPatch(client, location, first, data.subarray(first, second))).status).toBe(204);
    release();
    // What the HEAD saw before the PATCH or after it, never less.
    expect([first, second]).toContain(Number((await head).headers.get('upload-offset')));

    expect((await tusPatch(client, location, second, data.subarray(second))).status).toBe(204);
    expect(Number((await tusHead(client, location)).headers.get('upload-offset'))).toBe(data.length);
  });
});
