// "A crash during the final PATCH loses the file" (issue 26, found under load): on S3 every part of
// an upload was stored but the process died before completing the multipart upload. HEAD then
// reports the full length (so a tus client sends nothing more) and completion must accept it:
// the upload is completed then, with the right bytes. Also a process that dies in the PATCH after
// a short tail ("<id>.part"), or whose part S3 refuses: the bytes it had acknowledged stay counted
// and stored. The faults are wrappers that throw once where the process would have died or S3 failed.
import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshBucket, localS3Client, s3Endpoint, type TestBucket } from '../storage/s3-test-bucket.ts';
import { startServer, type TestServer } from './harness.ts';
import { createUploadFolder, fakeCiphertext, sha256, tusCreate, tusHead, tusPatch, uploadPath } from './upload-helpers.ts';

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

interface Completing {
  finishMultipartUpload: (...args: unknown[]) => Promise<unknown>;
}

interface PartUploading {
  client: { uploadPart: (...args: unknown[]) => Promise<unknown> };
}

class KilledBeforeCompletion extends Error {
  readonly code = 'KILLED_BEFORE_COMPLETION';
}

suite('BLOB_STORE=s3: a process dies between the last part and the completion', () => {
  let bucket: TestBucket;
  let server: TestServer;
  let s3: S3Client;

  beforeAll(async () => {
    bucket = await freshBucket(s3Endpoint!, 'crash');
    s3 = localS3Client(s3Endpoint!);
    server = await startServer({ env: { ...bucket.env, UPLOAD_MAX_FILE_MB: '64', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    s3?.destroy();
  });

  /** A tus upload of 9 MiB + 77 bytes of plaintext (two S3 parts and a short one), created, nothing sent. */
  async function startedUpload(filename: string) {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const plainSize = 9 * 1024 * 1024 + 77;
    const data = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, data.length, { filename, plainSize })).headers.get('location')!;
    return { folder, client, data, location, id: location.split('/').pop()! };
  }

  it('completes on `complete` an upload whose parts are all stored, with its bytes', async () => {
    const { folder, client, data, location, id } = await startedUpload('final.bin');
    expect((await tusPatch(client, location, 0, data.subarray(0, 3_000_000))).status).toBe(204);

    const store = server.app.uploads.tusStorage.datastore as unknown as Completing;
    const original = store.finishMultipartUpload;
    store.finishMultipartUpload = async () => {
      store.finishMultipartUpload = original;
      throw new KilledBeforeCompletion('the process died here');
    };
    const final = await tusPatch(client, location, 3_000_000, data.subarray(3_000_000));
    expect(final.status).toBe(500);
    expect(store.finishMultipartUpload).toBe(original);
    // The state the load test found: the multipart upload still open, HEAD at the full length.
    const open = (await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket.bucket }))).Uploads ?? [];
    expect(open.map((upload) => upload.Key)).toContain(`uploads/${id}`);
    expect(await server.app.blobs.stat(`uploads/${id}`)).toBeNull();
    const head = await tusHead(client, location);
    expect(head.headers.get('upload-offset')).toBe(String(data.length));

    const done = await client.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('final') }] });

    expect(done.body.failed_files).toEqual([]);
    expect(done.body.successful_files).toHaveLength(1);
    const [record] = await server.app.repos.files.listForFolder(folder.id);
    const stored = Buffer.concat(await (await server.app.blobs.get(record!.blobKey)).toArray());
    expect(stored.equals(data)).toBe(true);
    const still = (await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket.bucket }))).Uploads ?? [];
    expect(still.map((upload) => upload.Key)).not.toContain(`uploads/${id}`);
  });

  it('keeps the acknowledged bytes of a short tail when S3 refuses the part of the next PATCH that would hold them again', async () => {
    const { folder, client, data, location, id } = await startedUpload('tail.bin');
    // 3 MB: less than one S3 part, so all of it waits as the tail. The next PATCH fills a part
    // with the tail in front, and S3 refuses that part (a dead link or a crash of the S3 node).
    expect((await tusPatch(client, location, 0, data.subarray(0, 3_000_000))).status).toBe(204);

    const { client: s3 } = server.app.uploads.tusStorage.datastore as unknown as PartUploading;
    const original = s3.uploadPart;
    s3.uploadPart = async () => {
      s3.uploadPart = original;
      throw new KilledBeforeCompletion('the process died here');
    };
    expect((await tusPatch(client, location, 3_000_000, data.subarray(3_000_000, 9_000_000))).status).toBe(500);
    expect(s3.uploadPart).toBe(original);
    // What it had acknowledged is still there, and counted.
    expect((await tusHead(client, location)).headers.get('upload-offset')).toBe('3000000');

    expect((await tusPatch(client, location, 3_000_000, data.subarray(3_000_000))).status).toBe(204);
    const done = await client.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('tail') }] });
    expect(done.body.successful_files).toHaveLength(1);
    const stored = Buffer.concat(await (await server.app.blobs.get(`uploads/${id}`)).toArray());
    expect(stored.equals(data)).toBe(true);
  });

  it('neither counts nor sends again a tail whose bytes a stored part holds, when the process died before removing it', async () => {
    const { folder, client, data, location, id } = await startedUpload('stale.bin');
    const part = 5 * 1024 * 1024;
    expect((await tusPatch(client, location, 0, data.subarray(0, 3_000_000))).status).toBe(204);
    // The next PATCH fills exactly one part with the tail in front; the process dies before the tail goes.
    const { client: s3 } = server.app.uploads.tusStorage.datastore as unknown as { client: { deleteObject: (input: { Key?: string }) => Promise<unknown> } };
    const deleteObject = s3.deleteObject.bind(s3);
    s3.deleteObject = async (input) => {
      if (!input.Key?.endsWith('.part')) return deleteObject(input);
      s3.deleteObject = deleteObject;
      throw new KilledBeforeCompletion('the process died here');
    };
    expect((await tusPatch(client, location, 3_000_000, data.subarray(3_000_000, part))).status).toBe(204);
    expect(await server.app.blobs.stat(`uploads/${id}.part`)).not.toBeNull();
    expect((await tusHead(client, location)).headers.get('upload-offset')).toBe(String(part));

    expect((await tusPatch(client, location, part, data.subarray(part))).status).toBe(204);
    const done = await client.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('stale') }] });
    expect(done.body.successful_files).toHaveLength(1);
    const stored = Buffer.concat(await (await server.app.blobs.get(`uploads/${id}`)).toArray());
    expect(stored.equals(data)).toBe(true);
  });
});
