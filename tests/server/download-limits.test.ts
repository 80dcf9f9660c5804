// Download limits on links over real HTTP: a link that allows each file N downloads counts one per
// recipient browser (the recipient cookie) once it has been sent the whole file, so probes, short
// ranges and broken fetches cost nothing and ranged, resumed and repeated fetches by the same
// browser add up to one download (also across processes); a file past its limit, and then the
// whole link, answers like an expired link; parallel whole downloads on two processes deliver a
// 1-download file whole at most once and count one; the admin's list shows each file's count and
// last download.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { createFolder, eventually, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { observeDatabase } from './table-rows.ts';

let server: TestServer;
let peer: PeerProcess;
let alice: TestClient;

beforeAll(async () => {
  // New recipients are rate-limited per IP; every recipient here is on loopback (link-flood.test.ts tests the limit).
  server = await startServer({ env: { RATE_LIMIT_LINK_RECIPIENTS_PER_IP: '100000' } });
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

  it('sends the whole file to at most one of 20 parallel downloads by different recipients on two processes, and counts one', async () => {
    for (let round = 0; round < 3; round++) {
      const link = await limitedLink(1);
      const file = link.files[0]!;
      const recipients = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const client = new TestClient(i % 2 === 0 ? server.baseUrl : peer.baseUrl);
          expect((await client.get(`/api/download/${link.token}/status`)).status).toBe(200);
          return client;
        }),
      );
      const answers = await Promise.all(
        recipients.map((client) => getBytes(client, filePath(link.token, file)).catch(() => ({ status: 0, body: Buffer.alloc(0) }))),
      );
      const whole = answers.filter((answer) => answer.status === 200 && answer.body.equals(file.content));
      expect(whole).toHaveLength(1);
      // The others were refused, or cut before the last bytes when another recipient's count won.
      for (const answer of answers) if (!answer.body.equals(file.content)) expect([0, 200, 410]).toContain(answer.status);
      await server.settled();
      expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(1);
    }
  });

  it('is not used up by a one-byte range from a fresh client, nor by a fetch broken off early', async () => {
    const link = await limitedLink(1);
    const file = link.files[0]!;
    for (const range of ['bytes=0-0', 'bytes=-1', `bytes=${file.content.length - 1}-`]) {
      const probe = await getBytes(new TestClient(server.baseUrl), filePath(link.token, file), { range });
      expect(probe.status, range).toBe(206);
      expect(probe.body).toHaveLength(1);
    }
    await server.settled();
    expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(0);

    const real = await recipientOn(server.baseUrl);
    expect((await real.get(`/api/download/${link.token}/status`)).status).toBe(200);
    const whole = await getBytes(real, filePath(link.token, file));
    expect(whole.status).toBe(200);
    expect(whole.body.equals(file.content)).toBe(true);
    await server.settled();
    expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(1);
    expect((await getBytes(new TestClient(server.baseUrl), filePath(link.token, file), { range: 'bytes=0-0' })).status).toBe(410);
  });

  it('counts a download resumed in ranges once, when the last byte went out, on another process too', async () => {
    const link = await limitedLink(1);
    const file = link.files[0]!;
    const size = file.content.length;
    const browser = await recipientOn(server.baseUrl);
    expect((await browser.get(`/api/download/${link.token}/status`)).status).toBe(200);
    const first = await getBytes(browser, filePath(link.token, file), { range: `bytes=0-${size / 2 - 1}` });
    expect(first.status).toBe(206);
    await server.settled();
    expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(0);

    // The same browser (its cookie) resumes against the other process: the rest completes the file.
    const resumed = new TestClient(peer.baseUrl);
    for (const [name, value] of browser.cookies) resumed.cookies.set(name, value);
    const rest = await getBytes(resumed, filePath(link.token, file), { range: `bytes=${size / 2}-` });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([first.body, rest.body]).equals(file.content)).toBe(true);
    expect(await eventually(async () => (await linkSummary(link.folderId, link.token)).file_downloads[0].download_count === 1)).toBe(true);

    // Fetching again costs nothing; a stranger is refused.
    expect((await getBytes(browser, filePath(link.token, file))).status).toBe(200);
    expect((await getBytes(new TestClient(server.baseUrl), filePath(link.token, file))).status).toBe(410);
    expect((await linkSummary(link.folderId, link.token)).file_downloads[0].download_count).toBe(1);
  });

  it('does not take a recipient cookie the server did not issue', async () => {
    const link = await limitedLink(1);
    const file = link.files[0]!;
    const browser = await recipientOn(server.baseUrl);
    await browser.get(`/api/download/${link.token}/status`);
    expect((await getBytes(browser, filePath(link.token, file))).status).toBe(200);
    await server.settled();
    // A forged cookie (another token, or the real one's token with a made-up signature) is a new recipient: refused.
    const issued = browser.cookies.get('sealdrop_link_recipient')!;
    for (const forged of ['x'.repeat(43), `${issued.split('.')[0]}.${'A'.repeat(43)}`]) {
      const stranger = new TestClient(server.baseUrl);
      stranger.cookies.set('sealdrop_link_recipient', forged);
      expect((await getBytes(stranger, filePath(link.token, file))).status).toBe(410);
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

// Last in this file: it moves the clock a week on.
describe('ranges of recipients never counted', () => {
  it('are forgotten once the recipient cookie has lapsed, so they do not pile up over a link\'s life', async () => {
    const link = await limitedLink(1);
    const file = link.files[0]!;
    const observer = await observeDatabase(server);
    try {
      const uncounted = async () => {
        const rows = await observer.db
          .selectFrom('download_link_fetches')
          .innerJoin('download_links', 'download_links.id', 'download_link_fetches.link_id')
          .select('download_link_fetches.recipient_hash')
          .where('download_links.link_token', '=', link.token)
          .where('download_link_fetches.counted_at', 'is', null)
          .execute();
        return rows.map((row) => row.recipient_hash);
      };
      expect((await getBytes(new TestClient(server.baseUrl), filePath(link.token, file), { range: 'bytes=0-99' })).status).toBe(206);
      await server.settled();
      const [first] = await uncounted();
      expect(first).toBeDefined();

      server.clock.advance(8 * 24 * 3_600_000);
      expect((await getBytes(new TestClient(server.baseUrl), filePath(link.token, file), { range: 'bytes=0-99' })).status).toBe(206);
      await server.settled();
      const left = await uncounted();
      expect(left).toHaveLength(1);
      expect(left).not.toContain(first);
    } finally {
      await observer.close();
    }
  });
});
