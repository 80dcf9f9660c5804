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
//
// A PATCH uploads its parts at once, so its short final part is often stored before the 8 MiB
// part ahead of it. A HEAD that counted the later part then reported its size as the offset: seen
// once in a whole CI run (tus-concurrent-patches, S3: 1,049,164 reported after 3,145,929 had been
// acknowledged). The third test holds part 1 until the HEAD is answered.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES } from '../../server/storage/s3-blob-store.ts';
import { freshBucket, s3Endpoint } from '../storage/s3-test-bucket.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, fakeCiphertext, tusCreate, tusHead, tusPatch } from './upload-helpers.ts';

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

/** The S3 client the tus store sends its requests with. */
interface StoreClient {
  client: {
    listParts: (input: { PartNumberMarker?: string }) => Promise<unknown>;
    uploadPart: (input: { PartNumber?: number }) => Promise<unknown>;
    putObject: (input: { Key?: string }) => Promise<unknown>;
  };
}

suite('BLOB_STORE=s3: part listings per tus request', () => {
  let server: TestServer;
  let s3: StoreClient['client'];
  let originalListParts: StoreClient['client']['listParts'];
  let originalUploadPart: StoreClient['client']['uploadPart'];
  let originalPutObject: StoreClient['client']['putObject'];
  beforeAll(async () => {
    const bucket = await freshBucket(s3Endpoint!, 'listing');
    server = await startServer({ env: { ...bucket.env, UPLOAD_MAX_FILE_MB: '64', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    s3 = (server.app.uploads.tusStorage.datastore as unknown as StoreClient).client;
    originalListParts = s3.listParts;
    originalUploadPart = s3.uploadPart;
    originalPutObject = s3.putObject;
  }, 60_000);
  // Each test hooks the store's requests; the next one, passed or failed, starts from the real ones.
  afterEach(() => {
    if (!s3) return;
    s3.listParts = originalListParts;
    s3.uploadPart = originalUploadPart;
    s3.putObject = originalPutObject;
  });
  afterAll(() => server?.close());

  /** The short first PATCH the tests below start from: a tail only, no part stored. */
  const SHORT_FIRST = 3 * 1024 * 1024 + 5;

  /** A new tus upload of `plainSize` whose first SHORT_FIRST bytes are acknowledged as a short tail. */
  async function uploadWithShortTail(filename: string, plainSize: number) {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const data = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, data.length, { filename, plainSize })).headers.get('location')!;
    expect((await tusPatch(client, location, 0, data.subarray(0, SHORT_FIRST))).status).toBe(204);
    const offset = async () => Number((await tusHead(client, location)).headers.get('upload-offset'));
    const stored = async () => Buffer.concat(await (await server.app.blobs.get(`uploads/${location.split('/').pop()!}`)).toArray());
    return { client, data, location, offset, stored };
  }

  /** Part 1's next upload fails once `count` other parts are stored: the PATCH fails and leaves them behind a gap. */
  function failPartOneOnceOthersStored(count: number): void {
    const uploadPart = originalUploadPart.bind(s3);
    let failed = false;
    let othersStored = 0;
    let othersDone!: () => void;
    const others = new Promise<void>((resolve) => (othersDone = resolve));
    s3.uploadPart = async (input) => {
      if (input.PartNumber === 1 && !failed) {
        failed = true;
        await others;
        throw Object.assign(new Error('injected part failure'), { name: 'InternalError' });
      }
      const answer = await uploadPart(input);
      if (failed && input.PartNumber !== 1 && ++othersStored === count) othersDone();
      return answer;
    };
  }

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

  it('counts no part stored ahead of one still uploading: a HEAD then reports the acknowledged offset', async () => {
    const uploadPart = originalUploadPart.bind(s3);
    const folder = await createUploadFolder(server);
    const client = server.client();
    const plainSize = 12 * 1024 * 1024;
    const data = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, data.length, { filename: 'ahead.bin', plainSize })).headers.get('location')!;
    const first = 3 * 1024 * 1024 + 5;
    expect((await tusPatch(client, location, 0, data.subarray(0, first))).status).toBe(204);

    // The rest makes part 1 (8 MiB, the short tail in front) and the short final part 2. Part 1 is
    // held until the HEAD below is answered, so part 2 is stored first, as it often is when the
    // two upload at once.
    let release!: () => void;
    const partOneHeld = new Promise<void>((resolve) => (release = resolve));
    let partTwoStored!: () => void;
    const partTwo = new Promise<void>((resolve) => (partTwoStored = resolve));
    s3.uploadPart = async (input) => {
      if (input.PartNumber === 1) await partOneHeld;
      const answer = await uploadPart(input);
      if (input.PartNumber === 2) partTwoStored();
      return answer;
    };
    const rest = tusPatch(client, location, first, data.subarray(first));
    try {
      await partTwo;
      // Counting part 2 after the gap reported its size (the short tail taken as absorbed by it).
      expect(Number((await tusHead(client, location)).headers.get('upload-offset'))).toBe(first);
    } finally {
      release();
    }
    expect((await rest).status).toBe(204);
    expect(Number((await tusHead(client, location)).headers.get('upload-offset'))).toBe(data.length);
  });

  it('after a part failed while the part behind it was stored, reports the offset before the gap and stores the bytes sent again', async () => {
    const { client, data, location, offset, stored } = await uploadWithShortTail('gap.bin', 12 * 1024 * 1024);
    failPartOneOnceOthersStored(1);
    expect((await tusPatch(client, location, SHORT_FIRST, data.subarray(SHORT_FIRST))).status).toBeGreaterThanOrEqual(500);
    expect(await offset()).toBe(SHORT_FIRST);

    // Sent again from there, the parts replace the one left behind the gap.
    expect((await tusPatch(client, location, SHORT_FIRST, data.subarray(SHORT_FIRST))).status).toBe(204);
    expect(await offset()).toBe(data.length);
    expect((await stored()).equals(data)).toBe(true);
  });

  for (const [resent, end] of [
    ['up to the part boundary', PART_BYTES],
    ['a little past the part boundary', PART_BYTES + 1000],
  ] as const) {
    it(`after a failed PATCH left a part behind a gap, a shorter PATCH sent again (${resent}) does not count that part`, async () => {
      const { client, data, location, offset, stored } = await uploadWithShortTail('shorter.bin', 12 * 1024 * 1024);
      // The failed PATCH sent other bytes: none of them was acknowledged, so none may be stored.
      failPartOneOnceOthersStored(1);
      expect((await tusPatch(client, location, SHORT_FIRST, randomBytes(data.length - SHORT_FIRST))).status).toBeGreaterThanOrEqual(500);
      expect(await offset()).toBe(SHORT_FIRST);

      // Part 1 is stored now, and part 2 (the failed PATCH's) follows it without a gap.
      expect((await tusPatch(client, location, SHORT_FIRST, data.subarray(SHORT_FIRST, end))).status).toBe(204);
      expect(await offset()).toBe(end);
      expect((await tusPatch(client, location, end, data.subarray(end))).status).toBe(204);
      expect(await offset()).toBe(data.length);
      expect((await stored()).equals(data)).toBe(true);
    });
  }

  it('after a failed PATCH left several parts, one that stores the first of them and then fails counts none of the others', async () => {
    const putObject = originalPutObject.bind(s3);
    // Parts 1-3 of 8 MiB and a short final part 4.
    const { client, data, location, offset, stored } = await uploadWithShortTail('several.bin', 28 * 1024 * 1024);
    const first = SHORT_FIRST;

    // Part 1 fails once parts 2-4 of other bytes are stored.
    failPartOneOnceOthersStored(3);
    expect((await tusPatch(client, location, first, randomBytes(data.length - first))).status).toBeGreaterThanOrEqual(500);

    // Part 1 and a short tail marking parts 2-4.
    const afterOne = PART_BYTES + 1000;
    expect((await tusPatch(client, location, first, data.subarray(first, afterOne))).status).toBe(204);
    expect(await offset()).toBe(afterOne);

    // Part 2 is stored, then putting the next tail fails: parts 3 and 4 are still the failed PATCH's.
    const afterTwo = 2 * PART_BYTES + 1000;
    let tailRefused = false;
    s3.putObject = async (input) => {
      if (!tailRefused && input.Key?.endsWith('.part')) {
        tailRefused = true;
        throw Object.assign(new Error('injected tail failure'), { name: 'InternalError' });
      }
      return putObject(input);
    };
    expect((await tusPatch(client, location, afterOne, data.subarray(afterOne, afterTwo))).status).toBeGreaterThanOrEqual(500);
    expect(tailRefused).toBe(true);
    expect(await offset()).toBe(2 * PART_BYTES);

    expect((await tusPatch(client, location, 2 * PART_BYTES, data.subarray(2 * PART_BYTES))).status).toBe(204);
    expect(await offset()).toBe(data.length);
    expect((await stored()).equals(data)).toBe(true);
  });
});
