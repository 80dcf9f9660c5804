// The server with BLOB_STORE=s3 against a real S3 server (TEST_S3_ENDPOINT: the local Swift with
// s3api that .ci/run starts): tus uploads whose PATCHes land on two processes, state in the bucket,
// the file record only once the object is complete; the multipart request streaming into the
// bucket; downloads; the sweep aborting abandoned multipart uploads and removing orphans, one
// process at a time; and the start-up check of the bucket.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { freshBucket, localS3Client, s3Endpoint, type TestBucket } from '../storage/s3-test-bucket.ts';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { TestClient } from './http-client.ts';
import { getBytes } from './files-fixtures.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  MultipartBody,
  postMultipart,
  sha256,
  tusCreate,
  tusHead,
  tusPatch,
  uploadPath,
} from './upload-helpers.ts';

const HOUR = 3_600_000;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

suite('BLOB_STORE=s3', () => {
  let bucket: TestBucket;
  let server: TestServer;
  let peer: PeerProcess;
  let s3: S3Client;

  const keys = async (prefix = '') =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!).sort();
  const unfinished = async () =>
    ((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket.bucket }))).Uploads ?? []).map((u) => u.Key!).sort();

  beforeAll(async () => {
    bucket = await freshBucket(s3Endpoint!, 'server');
    s3 = localS3Client(s3Endpoint!);
    server = await startServer({ env: { ...bucket.env, UPLOAD_MAX_FILE_MB: '64', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    peer = await startPeerProcess(server);
  }, 60_000);
  afterAll(async () => {
    await peer?.stop();
    await server?.close();
    s3?.destroy();
  });

  it('takes a tus upload whose PATCHes alternate between two processes, and records it only once the object is complete', async () => {
    const folder = await createUploadFolder(server);
    const here = server.client();
    const there = new TestClient(peer.baseUrl);
    const plainSize = 20 * 1024 * 1024 + 333;
    const data = fakeCiphertext(server, plainSize);
    const created = await tusCreate(here, folder, data.length, { filename: 'big.bin', plainSize });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // Cuts that leave tails shorter than S3's 5 MiB minimum part between requests.
    const cuts = [0, 3_000_000, 11_000_000, 17_500_000, data.length];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const client = i % 2 === 0 ? here : there;
      const other = i % 2 === 0 ? there : here;
      const head = await tusHead(other, location);
      expect(head.headers.get('upload-offset')).toBe(String(cuts[i]));
      const patched = await tusPatch(client, location, cuts[i]!, data.subarray(cuts[i], cuts[i + 1]));
      expect(patched.status).toBe(204);
      expect(patched.headers.get('upload-offset')).toBe(String(cuts[i + 1]));
      if (i + 2 < cuts.length) {
        // Not complete: no object under the upload's key, no record, and completion refuses.
        expect(await server.app.blobs.stat(`uploads/${id}`)).toBeNull();
        const early = await other.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('x') }] });
        expect(early.body.failed_files[0].error).toMatch(/^Upload incomplete: \d+ of \d+ bytes received$/);
        expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
      }
    }
    expect(await server.app.blobs.stat(`uploads/${id}`)).toEqual({ size: data.length });
    const done = await there.post(`${uploadPath(folder)}/complete`, { uploads: [{ upload_id: id, file_hash: sha256('big') }] });
    expect(done.body.successful_files).toHaveLength(1);
    const [record] = await server.app.repos.files.listForFolder(folder.id);
    expect(record!.blobKey).toBe(`uploads/${id}`);
    // The tus store's state objects are gone with the session; the object stays.
    expect(await keys(`uploads/${id}`)).toEqual([`uploads/${id}`]);
    expect(await unfinished()).not.toContain(`uploads/${id}`);

    const stored = Buffer.concat(await (await server.app.blobs.get(record!.blobKey)).toArray());
    expect(stored.equals(data)).toBe(true);
  });

  it('streams a multipart request into the bucket and serves it from either process, to the owner and by link', async () => {
    const { client: alice } = await signedInClient(server, 'alice');
    const folder = (await alice.post('/api/folders/', { title: 'On S3' })).body as { id: number; link_token: string };
    const data = fakeCiphertext(server, 9 * 1024 * 1024);
    const body = new MultipartBody().files([{ name: 'a.bin', data }]);
    const response = await postMultipart(server.client(), `/api/upload/${folder.link_token}`, body);
    expect(response.status).toBe(200);
    const [record] = await server.app.repos.files.listForFolder(folder.id);
    expect(record!.blobKey).toMatch(/^files\/[0-9a-f-]+$/);
    expect(await keys(record!.blobKey)).toEqual([record!.blobKey]);
    expect(await unfinished()).toEqual([]);

    // The owner's session, made on this process, downloads on the peer: whole and by range.
    const onPeer = new TestClient(peer.baseUrl);
    for (const [name, value] of alice.cookies) onPeer.cookies.set(name, value);
    const whole = await getBytes(onPeer, `/api/folders/download/${record!.id}`);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(data)).toBe(true);
    const ranged = await getBytes(onPeer, `/api/folders/download/${record!.id}`, { range: 'bytes=8388600-8388700' });
    expect(ranged.status).toBe(206);
    expect(ranged.body.equals(data.subarray(8_388_600, 8_388_701))).toBe(true);

    // A download link made on the peer, served by this process.
    const link = await onPeer.post('/api/download/links', { file_ids: [record!.id], password: null, reencrypted_keys_json: null, expiration_date: null });
    expect(link.status).toBe(201);
    const byLink = await getBytes(server.client(), `/api/download/${link.body.link_token}/file/${record!.id}`);
    expect(byLink.status).toBe(200);
    expect(byLink.body.equals(data)).toBe(true);
  });

  it('sweeps abandoned uploads (aborting their multipart uploads) and orphans, once, from one process at a time', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const data = fakeCiphertext(server, 7 * 1024 * 1024);
    const created = await tusCreate(client, folder, data.length, { filename: 'left.bin', plainSize: 7 * 1024 * 1024 });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    await tusPatch(client, location, 0, data.subarray(0, 6 * 1024 * 1024));
    expect(await unfinished()).toContain(`uploads/${id}`);
    await server.app.blobs.put('files/orphan-from-a-crash', Readable.from([randomBytes(100)]));
    const stray = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket.bucket, Key: 'files/crashed-mid-request' }));
    expect(stray.UploadId).toBeTruthy();

    // A second instance of the server on the same database and bucket sweeps at the same moment.
    const second: FastifyInstance = await buildApp(loadConfig(server.env), { clock: server.clock.now });
    try {
      const later = server.clock.now() + 25 * HOUR;
      const [a, b] = await Promise.all([server.app.sweepUploads(later), second.sweepUploads(later)]);
      const ran = [a, b].filter((report) => report.ran);
      expect(ran.length).toBeGreaterThanOrEqual(1);
      // Whatever ran, the work was done once: one abandoned upload, one orphan, one stray upload.
      const sum = (key: 'abandonedUploads' | 'orphanBlobs' | 'unfinishedWrites') => a[key] + b[key];
      expect(sum('abandonedUploads')).toBe(1);
      expect(sum('orphanBlobs')).toBeGreaterThanOrEqual(1);
      expect(sum('unfinishedWrites')).toBeGreaterThanOrEqual(1);
    } finally {
      await second.close();
    }
    expect(await unfinished()).toEqual([]);
    expect(await keys(`uploads/${id}`)).toEqual([]);
    expect(await server.app.blobs.stat('files/orphan-from-a-crash')).toBeNull();
    expect((await tusHead(client, location)).status).toBe(404);
  });

  it('stops at start with one line when the bucket is missing or unreachable', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...server.env, PORT: '0', ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const missing = run({ S3_BUCKET: 'no-such-bucket-here' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`S3 bucket "no-such-bucket-here" does not exist at ${s3Endpoint}`);
    const unreachable = run({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/S3 bucket "[^"]+" at http:\/\/127\.0\.0\.1:9 is unreachable \(ECONNREFUSED\)/);
    const wrongSecret = run({ AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(wrongSecret.status).toBe(1);
    expect(wrongSecret.stderr).toContain('refused access');
    expect(wrongSecret.stderr + wrongSecret.stdout).not.toContain('not-the-secret');
  }, 120_000);
});
