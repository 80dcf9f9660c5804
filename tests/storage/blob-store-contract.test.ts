// The BlobStore contract, run against every store: the disk store always, the S3 store against the
// local S3 server (TEST_S3_ENDPOINT; .ci/run starts one). Same calls, same answers, same errors.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobStoreError, type BlobStore } from '../../server/storage/blob-store.ts';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.ts';
import { S3BlobStore } from '../../server/storage/s3-blob-store.ts';
import { freshBucket, localS3Client, s3Endpoint } from './s3-test-bucket.ts';

interface StoreUnderTest {
  store: BlobStore;
  /** Everything the backend holds, including unfinished writes, as names. */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

async function diskStore(): Promise<StoreUnderTest> {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'));
  const walk = async (dir: string, prefix = ''): Promise<string[]> => {
    const names: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) names.push(...(await walk(join(dir, entry.name), `${prefix}${entry.name}/`)));
      else names.push(`${prefix}${entry.name}`);
    }
    return names;
  };
  return { store: new DiskBlobStore(root), leftovers: () => walk(root), close: () => rm(root, { recursive: true, force: true }) };
}

async function s3Store(endpoint: string): Promise<StoreUnderTest> {
  const { bucket } = await freshBucket(endpoint, 'contract');
  const client = localS3Client(endpoint);
  return {
    store: new S3BlobStore(client, bucket),
    async leftovers() {
      const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return [
        ...(objects.Contents ?? []).map((o) => o.Key!),
        ...(uploads.Uploads ?? []).map((u) => `unfinished:${u.Key}`),
      ];
    },
    async close() {
      client.destroy();
    },
  };
}

const endpoint = s3Endpoint;
const backends: Array<[string, (() => Promise<StoreUnderTest>) | null]> = [
  ['disk', diskStore],
  ['s3', endpoint ? () => s3Store(endpoint) : null],
];

describe.each(backends)('BlobStore contract: %s', (name, open) => {
  const suite = open ? describe : describe.skip; // skip-reason: the S3 variant needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one
  suite(`${name} store`, () => {
    let under: StoreUnderTest;
    let store: BlobStore;

    beforeAll(async () => {
      under = await open!();
      store = under.store;
    });
    afterAll(() => under?.close());

    it('stores a stream and reads it back whole and by inclusive range', async () => {
      const info = await store.put('files/a/1', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
      expect(info.size).toBe(11);
      expect(await store.stat('files/a/1')).toEqual({ size: 11 });
      expect(await text(await store.get('files/a/1'))).toBe('hello world');
      expect(await text(await store.get('files/a/1', { start: 6 }))).toBe('world');
      expect(await text(await store.get('files/a/1', { start: 0, end: 4 }))).toBe('hello');
    });

    it('stores an empty blob', async () => {
      expect(await store.put('files/empty', Readable.from([]))).toEqual({ size: 0 });
      expect(await store.stat('files/empty')).toEqual({ size: 0 });
      expect((await buffer(await store.get('files/empty'))).length).toBe(0);
    });

    it('streams a blob of several parts (multipart on S3) and reads any range of it back', async () => {
      const size = 8 * 1024 * 1024 * 2 + 12_345;
      const data = randomBytes(size);
      const chunks = Array.from({ length: Math.ceil(size / 65_536) }, (_, i) => data.subarray(i * 65_536, (i + 1) * 65_536));
      expect(await store.put('files/big', Readable.from(chunks))).toEqual({ size });
      const whole = await buffer(await store.get('files/big'));
      expect(createHash('sha256').update(whole).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
      const start = 8 * 1024 * 1024 - 10;
      const end = 8 * 1024 * 1024 * 2 + 100;
      expect((await buffer(await store.get('files/big', { start, end }))).equals(data.subarray(start, end + 1))).toBe(true);
      expect((await buffer(await store.get('files/big', { start: size - 1 }))).equals(data.subarray(size - 1))).toBe(true);
      await store.delete('files/big');
    });

    it('refuses a blob over the size limit and leaves nothing behind', async () => {
      const before = await under.leftovers();
      const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
      await expect(store.put('big', body, { maxBytes: 1000 })).rejects.toMatchObject({ code: 'BLOB_TOO_LARGE' });
      expect(await store.stat('big')).toBeNull();
      expect(await under.leftovers()).toEqual(before);
    });

    it('refuses a multipart-sized blob over the limit and leaves no unfinished upload', async () => {
      const before = await under.leftovers();
      const part = Buffer.alloc(1024 * 1024, 7);
      const body = Readable.from(Array.from({ length: 20 }, () => part));
      await expect(store.put('files/too-big', body, { maxBytes: 17 * 1024 * 1024 })).rejects.toMatchObject({ code: 'BLOB_TOO_LARGE' });
      expect(await store.stat('files/too-big')).toBeNull();
      expect(await under.leftovers()).toEqual(before);
    });

    it('leaves no partial blob when the source stream fails', async () => {
      const before = await under.leftovers();
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(10));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(store.put('dropped', failing)).rejects.toThrow('client went away');
      expect(await store.stat('dropped')).toBeNull();
      expect(await under.leftovers()).toEqual(before);
    });

    it('leaves no partial blob when the source failed just before the put began', async () => {
      // A client that drops out while its part waits for the gates: the parser has failed the
      // part's stream just before the store reads from it. The store's write must not outlive the
      // failed put: a disk store's temporary file opened after its removal stays for good. One put
      // after another, each racing its own clean-up.
      await store.put('files/failed-early/first', Readable.from([Buffer.from('x')]));
      const before = await under.leftovers();
      for (let i = 0; i < 300; i++) {
        const failed = new Readable({ read() {} });
        failed.on('error', () => undefined);
        failed.destroy(new Error('client went away'));
        await expect(store.put(`files/failed-early/${i}`, failed)).rejects.toThrow('client went away');
      }
      // A write that outlived its put would create its file only after this.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await under.leftovers()).toEqual(before);
    });

    it('answers missing blobs and bad ranges with typed errors', async () => {
      await expect(store.get('nope')).rejects.toMatchObject({ code: 'BLOB_NOT_FOUND' });
      await store.put('x', Readable.from([Buffer.from('abc')]));
      await expect(store.get('x', { start: 2, end: 5 })).rejects.toMatchObject({ code: 'BLOB_BAD_RANGE' });
      await expect(store.get('x', { start: 2, end: 1 })).rejects.toBeInstanceOf(BlobStoreError);
    });

    it('refuses keys that could escape the root', async () => {
      for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a//b', '', '.hidden']) {
        await expect(store.stat(key)).rejects.toMatchObject({ code: 'BLOB_BAD_KEY' });
        await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ code: 'BLOB_BAD_KEY' });
      }
    });

    it('deletes, and deleting a missing blob is fine', async () => {
      await store.put('gone', Readable.from([Buffer.from('x')]));
      await store.delete('gone');
      await store.delete('gone');
      expect(await store.stat('gone')).toBeNull();
    });

    it('lists every blob with its key and time, and removes an entry through the listing', async () => {
      await store.put('files/listed', Readable.from([Buffer.from('x')]));
      const entries = [];
      for await (const entry of store.list()) entries.push(entry);
      const listed = entries.find((entry) => entry.key === 'files/listed');
      expect(listed).toMatchObject({ unfinished: false });
      expect(Math.abs(listed!.modifiedAt - Date.now())).toBeLessThan(60_000);
      await listed!.remove();
      expect(await store.stat('files/listed')).toBeNull();
    });
  });
});
