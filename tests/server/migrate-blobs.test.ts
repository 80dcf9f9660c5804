// npm run admin -- migrate-blobs: a disk store moved into an S3 bucket (the local Swift with s3api,
// TEST_S3_ENDPOINT), each copy verified; a server on the bucket then serves the same files with no
// change to the database. Running it again copies nothing that is already right, and replaces a
// copy that differs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshBucket, localS3Client, s3Endpoint, type TestBucket } from '../storage/s3-test-bucket.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import { startPeerProcess } from './peer-process.ts';
import { TestClient } from './http-client.ts';

const root = path.resolve(import.meta.dirname, '../..');

const suite = s3Endpoint ? describe : describe.skip; // skip-reason: needs an S3 server (TEST_S3_ENDPOINT, e.g. from npm run s3-server); .ci/run starts one

suite('migrate-blobs', () => {
  let server: TestServer;
  let bucket: TestBucket;

  beforeAll(async () => {
    server = await startServer();
    bucket = await freshBucket(s3Endpoint!, 'migrate');
  });
  afterAll(() => server?.close());

  const migrate = (env: Record<string, string> = bucket.env) =>
    spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['server/cli.ts', 'migrate-blobs'], {
      cwd: root,
      env: { ...process.env, ...server.env, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('copies and verifies every blob, after which a server on the bucket serves the same bytes', async () => {
    const { client: alice } = await signedInClient(server, 'alice');
    const folder = await createFolder(alice, 'Moving to S3');
    const files: SeededFile[] = [];
    for (const size of [0, 1000, 9 * 1024 * 1024 + 7]) files.push(await seedFile(server, folder.id, { content: randomBytes(size) }));
    const bytes = files.reduce((sum, file) => sum + file.content.length, 0);

    const first = migrate();
    expect(first.stderr).not.toMatch(/Error|FAILED/);
    expect(first.status).toBe(0);
    expect(first.stdout.trim().split('\n').at(-1)).toBe(
      `Migrated 3 blobs from ${path.join(server.config.dataDir, 'blobs')} to S3 bucket "${bucket.bucket}": 3 copied, 0 already there, ${bytes} bytes, all verified.`,
    );

    // A copy that differs (damaged in the bucket) is replaced on the next run; the others stay.
    const s3 = localS3Client(s3Endpoint!);
    await s3.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: files[1]!.blobKey, Body: randomBytes(1000) }));
    s3.destroy();
    const again = migrate();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('1 copied, 2 already there');

    const onS3 = await startPeerProcess(server, bucket.env);
    try {
      const client = new TestClient(onS3.baseUrl);
      for (const [name, value] of alice.cookies) client.cookies.set(name, value);
      for (const file of files) {
        const response = await getBytes(client, `/api/folders/download/${file.id}`);
        expect(response.status).toBe(200);
        expect(response.body.equals(file.content)).toBe(true);
      }
    } finally {
      await onS3.stop();
    }
  }, 120_000);

  it('refuses without an S3 target, and names a blob missing at the source', async () => {
    const refused = migrate({});
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Error: migrate-blobs copies into S3: set BLOB_STORE=s3, S3_BUCKET and the AWS variables of the target bucket.',
    );

    const { client } = await signedInClient(server, 'bob');
    const folder = await createFolder(client, 'Missing blob');
    const lost = await seedFile(server, folder.id);
    await server.app.blobs.delete(lost.blobKey);
    const result = migrate();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`FAILED ${lost.blobKey}: missing from the disk store`);
    expect(result.stderr).toContain('Do not switch to BLOB_STORE=s3 yet.');
  }, 120_000);
});
