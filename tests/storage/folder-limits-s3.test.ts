// Issue 28 with BLOB_STORE=s3 against a real S3 server (TEST_S3_ENDPOINT): the folder limits apply
// there too (tus creation and multipart refused with 413 FOLDER_QUOTA_EXCEEDED, nothing stored),
// and there is no local reserve: the storage overview says so (no free space, no reserve).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshBucket, s3Endpoint } from './s3-test-bucket.ts';
import { signedInClient, startServer, type TestServer } from '../server/harness.ts';
import { createUploadFolder, fakeCiphertext, MultipartBody, postMultipart, tusCreate, uploadPath } from '../server/upload-helpers.ts';

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

suite('folder limits with BLOB_STORE=s3', () => {
  let server: TestServer;

  beforeAll(async () => {
    const bucket = await freshBucket(s3Endpoint!, 'limits');
    server = await startServer({ env: { ...bucket.env, UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
  }, 60_000);
  afterAll(() => server?.close());

  it('refuses what would pass a folder\'s limits, and has no local reserve', async () => {
    const folder = await createUploadFolder(server, { storageLimitBytes: 100_000, fileLimit: 2 });
    const uploader = server.client();
    expect((await tusCreate(uploader, folder, server.app.uploads.sizes.encryptedLength(60_000), { filename: 'a.bin', plainSize: 60_000 })).status).toBe(201);
    const refused = await tusCreate(uploader, folder, server.app.uploads.sizes.encryptedLength(60_000), { filename: 'b.bin', plainSize: 60_000 });
    expect(refused.status).toBe(413);
    expect(JSON.parse(String(refused.body)).code).toBe('FOLDER_QUOTA_EXCEEDED');

    const multipart = await postMultipart(uploader, uploadPath(folder), new MultipartBody().files([{ name: 'c.bin', data: fakeCiphertext(server, 50_000) }]));
    expect(multipart.status).toBe(413);
    expect(multipart.body.code).toBe('FOLDER_QUOTA_EXCEEDED');
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
    expect(await server.app.repos.folderUsage.usageOf(folder.id)).toEqual({ bytes: 60_000, files: 1 });

    const { client } = await signedInClient(server, 's3-admin');
    const overview = await client.get('/api/storage');
    expect(overview.body).toMatchObject({ store: 's3', free_bytes: null, reserve_bytes: null });
  }, 60_000);
});
