// One holder of a download link cannot flood the database or the owner. Requests without a
// recipient cookie are new recipients: rate-limited per client IP and per link (429 with
// retry-after), and the activity log and the webhook get one entry per counted download, not per
// request. 10,000 cookie-less requests from many addresses add a bounded number of rows
// (docs/operations.md, "Download-link rate limits"): the per-link budget bounds what the requests
// add, plus one rate-limit counter per address. Addresses come from X-Forwarded-For, which the
// server trusts from loopback here (TRUST_PROXY), as it would from a reverse proxy.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../server/db/connection.ts';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import { TestClient } from './http-client.ts';
import { createFolder, getBytes, seedFile, type SeededFile } from './files-fixtures.ts';
import { observeDatabase, rowsAdded, rowsPerTable } from './table-rows.ts';

const PER_IP = 20;
const PER_LINK = 40;

let server: TestServer;
let alice: TestClient;
let observer: OpenDatabase;
let receiver: Server;

beforeAll(async () => {
  // A webhook receiver on loopback that accepts everything, so every queued event is also sent.
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    env: {
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_LINK_RECIPIENTS_PER_IP: String(PER_IP),
      RATE_LIMIT_LINK_RECIPIENTS_PER_LINK: String(PER_LINK),
      WEBHOOK_CHECK_SECONDS: '0',
      // The test's receiver is on loopback, which webhooks may reach only when the operator allows it.
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    },
    ownPublicUrl: true,
  });
  alice = (await signedInClient(server, 'alice')).client;
  const port = (receiver.address() as { port: number }).port;
  expect((await alice.request('PUT', '/api/auth/webhook', { json: { url: `http://127.0.0.1:${port}/hook` } })).status).toBe(200);
  observer = await observeDatabase(server);
}, 60_000);
afterAll(async () => {
  await observer?.close();
  await server?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

/** A link without download limit to one small file. */
async function openLink(): Promise<{ token: string; file: SeededFile }> {
  const folder = await createFolder(alice, `Flood ${randomBytes(3).toString('hex')}`);
  const file = await seedFile(server, folder.id, { name: 'flyer.pdf', content: randomBytes(2000) });
  const response = await alice.post('/api/download/links', { file_ids: [file.id], password: null, expiration_date: null });
  expect(response.status).toBe(201);
  return { token: response.body.link_token, file };
}

async function linkEvents(kind: 'activity' | 'webhook'): Promise<number> {
  const row =
    kind === 'activity'
      ? await observer.db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'link.downloaded').executeTakeFirstOrThrow()
      : await observer.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('event_type', '=', 'link.downloaded').executeTakeFirstOrThrow();
  return Number(row.n);
}

// Each test starts in a fresh rate-limit window.
function nextWindow(): void {
  server.clock.advance(16 * 60_000);
}

describe('cookie-less requests to a download link', () => {
  it('are limited per client IP: 429 with retry-after, and one activity entry and webhook per counted download', async () => {
    nextWindow();
    const link = await openLink();
    const path = `/api/download/${link.token}/file/${link.file.id}`;
    const activityBefore = await linkEvents('activity');
    const webhooksBefore = await linkEvents('webhook');

    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await getBytes(new TestClient(server.baseUrl), path, { 'x-forwarded-for': '203.0.113.7' }));
    const served = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(served).toHaveLength(PER_IP);
    expect(limited).toHaveLength(200 - PER_IP);
    expect(JSON.parse(limited[0]!.body.toString())).toEqual({ detail: 'Too many download requests. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another address still gets the file; and one browser fetching 30 times is one download.
    const browser = new TestClient(server.baseUrl);
    const first = await getBytes(browser, path, { 'x-forwarded-for': '198.51.100.9' });
    expect(first.status).toBe(200);
    const cookie = /sealdrop_link_recipient=([^;]+)/.exec(first.headers.getSetCookie().join('\n'))!;
    browser.cookies.set('sealdrop_link_recipient', cookie[1]!);
    for (let i = 0; i < 29; i++) expect((await getBytes(browser, path, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(200);
    await server.settled();
    expect(await linkEvents('activity')).toBe(activityBefore + PER_IP + 1);
    expect(await linkEvents('webhook')).toBe(webhooksBefore + PER_IP + 1);
  });

  it('add a bounded number of rows: 10,000 of them from 1,000 addresses', async () => {
    nextWindow();
    const links = [await openLink(), await openLink()];
    await server.settled();
    const before = await rowsPerTable(observer);
    const started = Date.now();
    const total = 10_000;
    const addresses = 1_000;
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < total; batch += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const n = batch + i;
          const link = links[n % 2]!;
          const address = `10.${Math.floor((n % addresses) / 250)}.${n % 250}.${7 + (n % 3)}`;
          const path = n % 4 < 2 ? `/api/download/${link.token}/file/${link.file.id}` : `/api/download/${link.token}/status`;
          return getBytes(new TestClient(server.baseUrl), path, { 'x-forwarded-for': address });
        }),
      );
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    await server.settled();
    expect(Date.now() - started).toBeLessThan(240_000);
    // Each link admits PER_LINK new recipients in the window; everything else is 429.
    expect(statuses.get(200)).toBe(2 * PER_LINK);
    expect(statuses.get(429)).toBe(total - 2 * PER_LINK);

    const added = rowsAdded(before, await rowsPerTable(observer));
    const distinctAddresses = new Set(Array.from({ length: total }, (_, n) => `10.${Math.floor((n % addresses) / 250)}.${n % 250}.${7 + (n % 3)}`)).size;
    // The bound of docs/operations.md: per link and window at most PER_LINK recipients, each adding
    // at most one row per file to download_link_fetches, activity_log and webhook_deliveries;
    // one counter per address and per link.
    for (const table of Object.keys(added)) {
      expect(['download_link_fetches', 'activity_log', 'webhook_deliveries', 'failure_counters'], table).toContain(table);
    }
    expect(added.download_link_fetches ?? 0).toBeLessThanOrEqual(2 * PER_LINK);
    expect(added.activity_log ?? 0).toBeLessThanOrEqual(2 * PER_LINK);
    expect(added.webhook_deliveries ?? 0).toBeLessThanOrEqual(2 * PER_LINK);
    expect(added.failure_counters ?? 0).toBeLessThanOrEqual(distinctAddresses + 2);
  }, 300_000);
});
