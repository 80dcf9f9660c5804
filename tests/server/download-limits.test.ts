// Download limits on links over real HTTP: a link that allows each file N downloads counts one per
// recipient browser (the recipient cookie), so ranged and repeated fetches by the same browser are
// free; a file past its limit, and then the whole link, answers like an expired link; N parallel
// first fetches on two processes deliver a 1-download file exactly once; the admin's list shows
// each file's count and last fetch.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';

let server: TestServer;
let peer: PeerProcess;
let alice: TestClient;

beforeAll(async () => {
  server = await startServer();
  peer = await startPeerProcess(server);
  alice = (await signedInClient(server, 'alice')).client;
}, 60_000);
afterAll(async () => {
  await peer?.stop();
  await server?.close();
});

const EXPIRED = { detail: 'This link has expired.', code: 'LINK_EXPIRED' };

async function limitedLink(maxDownloads: number | null, count = 1) {
  const folder = await createFolder(alice, `Limited ${randomBytes(3).toString('hex')}`);
  const files: SeededFile[] = [];
  for (let i = 0; i < count; i++) files.push(await seedFile(server, folder.id, { name: `part-${i}.pdf`, content: randomBytes(4000 + i) }));
  const response = await alice.post('/api/download/links', {
    file_ids: files.map((file) => file.id),
    password: null,
    reencrypted_keys_json: null,
    expiration_date: null,
    max_downloads: maxDownloads,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { token: response.body.link_token as string, folderId: folder.id, files, created: response.body };
}

/** A recipient browser: its status call gets the recipient cookie, its file fetches send it. */
async function recipientOn(baseUrl: string): Promise<TestClient> {
  return new TestClient(baseUrl);
}

const filePath = (token: string, file: SeededFile) => `/api/download/${token}/file/${file.id}`;

async function linkSummary(folderId: number, token: string) {
  const list = await alice.get(`/api/download/links/folder/${folderId}`);
  expect(list.status).toBe(200);
  return list.body.find((link: { link_token: string }) => link.link_token === token);
}

describe('creating a limited link', () => {
  it('stores the limit, answers it, and lists every file at 0 downloads', async () => {
    const link = await limitedLink(3, 2);
    expect(link.created.max_downloads).toBe(3);
    const summary = await linkSummary(link.folderId, link.token);
    expect(summary.max_downloads).toBe(3);
    expect(summary.file_downloads).toEqual(link.files.map((file) => ({ file_id: file.id, download_count: 0, last_download_at: null })));
  });

  it('refuses a limit that is not a whole number from 1 to 10000 with 422', async () => {
    const folder = await createFolder(alice, `Bad limit ${randomBytes(3).toString('hex')}`);
    const file = await seedFile(server, folder.id);
    for (const max of [0, -1, 1.5, '3', 10_001, true]) {
      const response = await alice.post('/api/download/links', { file_ids: [file.id], password: null, max_downloads: max });
      expect(response.status, `max_downloads ${JSON.stringify(max)}`).toBe(422);
      expect(response.body.detail[0].loc).toEqual(['body', 'max_downloads']);
    }
  });
});

describe('a 1-download link', () => {
  it('serves the first recipient, again and in ranges, and answers everyone else like an expired link', async () => {
    const link = await limitedLink(1);
    const file = link.files[0]!;
    const first = await recipientOn(server.baseUrl);
    expect((await first.get(`/api/download/${link.token}/status`)).status).toBe(200);
    const whole = await getBytes(first, filePath(link.token, file));
    expect(whole.status).toBe(200);
    expect(whole.body.equals(file.content)).toBe(true);
    // The same browser resuming or fetching again is the same download.
    const resumed = await getBytes(first, filePath(link.token, file), { range: 'bytes=1000-' });
    expect(resumed.status).toBe(206);
    expect(resumed.body.equals(file.content.subarray(1000))).toBe(true);
    expect((await getBytes(first, filePath(link.token, file))).status).toBe(200);
    expect((await first.get(`/api/download/${link.token}/status`)).body.files).toHaveLength(1);

    const second = await recipientOn(server.baseUrl);
    const status = await second.get(`/api/download/${link.token}/status`);
    expect(status.status).toBe(410);
    expect(status.body).toEqual(EXPIRED);
    const refused = await getBytes(second, filePath(link.token, file));
    expect(refused.status).toBe(410);
    expect(JSON.parse(refused.body.toString())).toEqual(EXPIRED);
    // Without any cookie, a ranged request is a new recipient too: no way around the count.
    const bare = await getBytes(new TestClient(server.baseUrl), filePath(link.token, file), { range: 'bytes=3000-' });
    expect(bare.status).toBe(410);

    const summary = await linkSummary(link.folderId, link.token);
    expect(summary.file_downloads[0].download_count).toBe(1);
    expect(Date.parse(summary.file_downloads[0].last_download_at)).toBeGreaterThan(0);
  });

  it('delivers the file at most once to 24 parallel first fetches on two processes', async () => {
    for (let round = 0; round < 3; round++) {
      const link = await limitedLink(1);
      const file = link.files[0]!;
      const fetches = Array.from({ length: 24 }, (_, i) =>
        getBytes(new TestClient(i % 2 === 0 ? server.baseUrl : peer.baseUrl), filePath(link.token, file)),
      );
      const answers = await Promise.all(fetches);
      const delivered = answers.filter((answer) => answer.status === 200);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.body.equals(file.content)).toBe(true);
      expect(answers.filter((answer) => answer.status === 410)).toHaveLength(23);
      expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(1);
    }
  });
});

describe('a link of several files', () => {
  it('counts each file on its own; the link expires when every file is used up', async () => {
    const link = await limitedLink(1, 2);
    const [one, two] = link.files as [SeededFile, SeededFile];
    const a = await recipientOn(server.baseUrl);
    await a.get(`/api/download/${link.token}/status`);
    expect((await getBytes(a, filePath(link.token, one))).status).toBe(200);

    // B sees only what is left, and fetches it.
    const b = await recipientOn(peer.baseUrl);
    const left = await b.get(`/api/download/${link.token}/status`);
    expect(left.status).toBe(200);
    expect(left.body.files.map((file: { id: number }) => file.id)).toEqual([two.id]);
    expect((await getBytes(b, filePath(link.token, one))).status).toBe(410);
    expect((await getBytes(b, filePath(link.token, two))).status).toBe(200);

    const c = await recipientOn(server.baseUrl);
    expect((await c.get(`/api/download/${link.token}/status`)).status).toBe(410);
    // A still resumes the file it was counted for.
    expect((await a.get(`/api/download/${link.token}/status`)).body.files.map((file: { id: number }) => file.id)).toEqual([one.id]);
    expect((await getBytes(a, filePath(link.token, one), { range: 'bytes=10-' })).status).toBe(206);

    const summary = await linkSummary(link.folderId, link.token);
    expect(summary.file_downloads.map((entry: { download_count: number }) => entry.download_count)).toEqual([1, 1]);
  });
});

describe('a link without a limit', () => {
  it('serves everyone and counts recipients, not requests', async () => {
    const link = await limitedLink(null);
    const file = link.files[0]!;
    expect(link.created.max_downloads).toBeNull();
    const a = await recipientOn(server.baseUrl);
    await a.get(`/api/download/${link.token}/status`);
    for (let i = 0; i < 3; i++) expect((await getBytes(a, filePath(link.token, file))).status).toBe(200);
    const b = await recipientOn(server.baseUrl);
    await b.get(`/api/download/${link.token}/status`);
    expect((await getBytes(b, filePath(link.token, file))).status).toBe(200);
    const summary = await linkSummary(link.folderId, link.token);
    expect(summary.max_downloads).toBeNull();
    expect(summary.file_downloads[0].download_count).toBe(2);
  });
});
