// A retried multipart batch (issue 26, defect 4): the client makes one Idempotency-Key per batch
// and sends it again with every retry. Through a proxy that reads the server's 200 and then closes
// the client's socket (the answer lost after the server committed), the retry must be answered
// with the recorded result and store nothing; two copies racing each other store the batch once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from './harness.ts';
import { TestClient, type TestResponse } from './http-client.ts';
import { startLossyProxy, type LossyProxy } from './lossy-proxy.ts';
import { createUploadFolder, fakeCiphertext, MultipartBody, sendRaw, uploadPath } from './upload-helpers.ts';

let server: TestServer;
let proxy: LossyProxy;
/** How many more 200 answers to multipart uploads the proxy swallows. */
let answersToLose = 0;
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startServer({ env: { UPLOAD_MAX_FILE_MB: '1', UPLOAD_ABANDON_HOURS: '24' } });
  proxy = await startLossyProxy(server.baseUrl, (request, status) => {
    if (request.method !== 'POST' || request.url?.endsWith('/complete') || status !== 200 || answersToLose === 0) return false;
    answersToLose--;
    return true;
  });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

function batchBody(count: number): MultipartBody {
  return new MultipartBody().files(
    Array.from({ length: count }, (_, i) => ({ name: `batch-${i}.txt`, data: fakeCiphertext(server, 100 + i) })),
  );
}

/**
 * As the page's batch lane does (engine/batchLane.ts with retryBudget.ts): the same request, with
 * the same key, again after a network error; at most `attempts` tries.
 */
async function sendWithRetries(client: TestClient, folder: Folder, body: MultipartBody, key: string | undefined, attempts = 3): Promise<TestResponse> {
  const bytes = body.build();
  const headers: Record<string, string> = { 'content-type': body.contentType, ...(key ? { 'idempotency-key': key } : {}) };
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendRaw(client, 'POST', uploadPath(folder), bytes, headers);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

async function storedFileBlobs(): Promise<number> {
  let count = 0;
  for await (const entry of server.app.blobs.list()) if (entry.key.startsWith('files/')) count++;
  return count;
}

describe('a multipart batch retried after its answer was lost', () => {
  it('answers the retry with the recorded result and stores the files once', async () => {
    const folder = await createUploadFolder(server);
    const client = new TestClient(proxy.baseUrl);
    const blobsBefore = await storedFileBlobs();
    answersToLose = 1;
    const lostBefore = proxy.lost.length;

    const response = await sendWithRetries(client, folder, batchBody(3), randomUUID());

    expect(proxy.lost.length - lostBefore).toBe(1);
    expect(response.status).toBe(200);
    const result = response.body as { successful_files: Array<{ id: number; filename: string }>; failed_files: unknown[] };
    expect(result.successful_files.map((file) => file.filename)).toEqual(['batch-0.txt', 'batch-1.txt', 'batch-2.txt']);
    const records = await server.app.repos.files.listForFolder(folder.id);
    expect(records).toHaveLength(3);
    expect(result.successful_files.map((file) => file.id).sort()).toEqual(records.map((record) => record.id).sort());
    await server.settled();
    expect((await storedFileBlobs()) - blobsBefore).toBe(3);
  });

  it('stores a batch once when two copies with the same key race each other', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    const blobsBefore = await storedFileBlobs();
    const body = batchBody(4);
    const key = randomUUID();

    const [first, second] = await Promise.all([sendWithRetries(client, folder, body, key, 1), sendWithRetries(client, folder, body, key, 1)]);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(await server.app.repos.files.listForFolder(folder.id)).toHaveLength(4);
    await server.settled();
    expect((await storedFileBlobs()) - blobsBefore).toBe(4);
  });

  it('keeps keys apart per link: the same key on another link stores that batch', async () => {
    const key = randomUUID();
    const [one, two] = [await createUploadFolder(server), await createUploadFolder(server)];
    const client = server.client();
    expect((await sendWithRetries(client, one, batchBody(1), key)).status).toBe(200);
    expect((await sendWithRetries(client, two, batchBody(2), key)).status).toBe(200);
    expect(await server.app.repos.files.listForFolder(one.id)).toHaveLength(1);
    expect(await server.app.repos.files.listForFolder(two.id)).toHaveLength(2);
  });

  it('refuses a malformed key before storing anything', async () => {
    const folder = await createUploadFolder(server);
    const client = server.client();
    for (const key of ['short', 'x'.repeat(129), 'has spaces in it, sixteen+', '../../etc/passwd/abcdef']) {
      const response = await sendWithRetries(client, folder, batchBody(1), key, 1);
      expect(response.status).toBe(422);
      expect((response.body as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    expect(await server.app.repos.files.listForFolder(folder.id)).toEqual([]);
  });

  it('forgets keys older than the abandon time in the sweep', async () => {
    const folder = await createUploadFolder(server);
    const key = randomUUID();
    expect((await sendWithRetries(server.client(), folder, batchBody(1), key)).status).toBe(200);
    const report = await server.app.sweepUploads(server.clock.now() + 25 * HOUR);
    expect(report.expiredBatchKeys).toBeGreaterThanOrEqual(1);
    expect(await server.app.repos.uploadBatches.findResult(folder.id, key)).toBeUndefined();
  });
});
