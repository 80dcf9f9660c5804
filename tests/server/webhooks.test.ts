// Signed webhooks over real HTTP with a local receiver: setting the endpoint, the events an admin's
// actions cause (upload.completed, link.created, link.downloaded, files.deleted, webhook.test),
// signatures checked independently with node:crypto, retries with backoff after 500s, and an upload
// that never waits for a receiver that hangs, and the address policy: internal addresses refused
// when saved and when sent (names resolved by a stand-in, so no test connects to a private range),
// a refused delivery reading like any failed one. The receiver is on loopback, which the server
// reaches only because WEBHOOK_ALLOWED_NETWORKS lists it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostResolver } from '../../server/webhooks/transport.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { createFolder, getBytes, seedFile } from './files-fixtures.ts';
import { createFolderOf, MultipartBody, postMultipart, tusUploadAll, uploadPath } from './upload-helpers.ts';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on loopback: answers with `status`, or never answers while `hang` is set. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  hang = false;
  private readonly hanging: ServerResponse[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (this.hang) {
        this.hanging.push(response);
        return;
      }
      response.writeHead(this.status).end();
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/sealdrop`;
  }

  async stop(): Promise<void> {
    for (const response of this.hanging.splice(0)) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  events(type: string): Array<{ id: string; type: string; data: any }> {
    return this.received.map((item) => JSON.parse(item.body)).filter((event) => event.type === type);
  }
}

/** The receiver's check, written from docs/api.md with node:crypto, independent of the server's code. */
function verify(secret: string, received: Received, toleranceSeconds = 300): boolean {
  const header = String(received.headers['sealdrop-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${received.body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The resolver stand-in: names the tests map, and nothing else (no test query leaves the machine). */
const names = new Map<string, string[]>([
  ['localhost', ['127.0.0.1']],
  // A public address that is never connected to: only saved, removed before any event.
  ['hooks.example.com', ['93.184.216.34']],
]);
const resolveHost: HostResolver = async (hostname) => {
  const addresses = names.get(hostname);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const receiver = new Receiver();
let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  await receiver.start();
  server = await startServer({
    env: { WEBHOOK_CHECK_SECONDS: '0', WEBHOOK_TIMEOUT_SECONDS: '2', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32,::1/128' },
    ownPublicUrl: true,
    resolveHost,
  });
  admin = (await signedInClient(server, 'hooked')).client;
});
afterAll(async () => {
  await server?.close();
  await receiver.stop();
});

async function setEndpoint(client: TestClient, url: string, rotate = false) {
  const response = await client.request('PUT', '/api/auth/webhook', { json: { url, ...(rotate ? { rotate_secret: true } : {}) } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { endpoint: { url: string; secret: string } };
}

describe('the endpoint', () => {
  it('refuses URLs that are not http(s) or carry credentials, and answers 404 without one', async () => {
    const fresh = (await signedInClient(server, 'nohook')).client;
    expect((await fresh.get('/api/auth/webhook')).body).toEqual({ endpoint: null, deliveries: [] });
    expect((await fresh.post('/api/auth/webhook/test')).status).toBe(404);
    expect((await fresh.request('DELETE', '/api/auth/webhook')).status).toBe(404);
    for (const url of ['ftp://example.com/x', 'example.com/hook', 'https://user:pw@example.com/', '', 'javascript:alert(1)', 'http://10.0.0.8/hook']) {
      const response = await fresh.request('PUT', '/api/auth/webhook', { json: { url } });
      expect(response.status, url).toBe(422);
    }
    for (const url of ['http://localhost:9/hook', 'http://127.0.0.1:9/hook', 'https://hooks.example.com/sealdrop']) {
      expect((await fresh.request('PUT', '/api/auth/webhook', { json: { url } })).status, url).toBe(200);
    }
    expect((await fresh.request('DELETE', '/api/auth/webhook')).status).toBe(204);
  });
});

describe('the address policy', () => {
  it('refuses to save a URL whose address is loopback outside the allowed networks, private, CGNAT, unique-local, link-local, unspecified or IPv4-mapped', async () => {
    names.set('intranet.example', ['10.0.0.1']);
    names.set('router.example', ['192.168.1.1']);
    names.set('ula.example', ['fd00::1']);
    names.set('mapped.example', ['::ffff:10.0.0.1']);
    names.set('half.example', ['93.184.216.34', '172.16.0.1']);
    const prober = (await signedInClient(server, 'prober')).client;
    const urls = [
      'https://10.0.0.1/', 'https://172.16.0.1/', 'https://192.168.1.1:8443/admin', 'https://100.64.0.1/', 'https://[fd00::1]/', 'https://[fe80::1]/',
      'https://169.254.169.254/latest/meta-data/iam', 'https://0.0.0.0/', 'https://[::]/', 'https://[::ffff:10.0.0.1]/', 'https://[::ffff:c0a8:101]/',
      'https://127.0.0.2/', 'http://127.0.0.2:9/', 'https://0x7f.2/', 'http://hooks.example.com/',
      'https://intranet.example/', 'https://router.example/', 'https://ula.example/', 'https://mapped.example/', 'https://half.example/',
    ];
    for (const url of urls) {
      const response = await prober.request('PUT', '/api/auth/webhook', { json: { url } });
      expect(response.status, url).toBe(422);
      expect(response.body, url).toEqual({
        code: 'WEBHOOK_URL_REFUSED',
        detail: 'This webhook address is not allowed: it must be reachable on the public internet (or on a network the operator allowed with WEBHOOK_ALLOWED_NETWORKS).',
      });
    }
    expect((await prober.get('/api/auth/webhook')).body.endpoint).toBeNull();
  });

  it('checks again as it connects: a name that turns internal after saving gets no connection, and reads like a closed port', async () => {
    // A listener on 127.0.0.2 (loopback, but outside WEBHOOK_ALLOWED_NETWORKS): it counts connections.
    let connections = 0;
    const inside = createServer((_request, response) => response.writeHead(200).end());
    inside.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.2', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const port = (inside.address() as AddressInfo).port;
      names.set('rebind.example', ['93.184.216.34']);
      const rebinder = (await signedInClient(server, 'rebinder')).client;
      await setEndpoint(rebinder, `https://rebind.example:${port}/hook`);
      names.set('rebind.example', ['127.0.0.2']);
      expect((await rebinder.post('/api/auth/webhook/test')).status).toBe(202);
      await server.settled();
      expect(connections).toBe(0);
      const refused = (await rebinder.get('/api/auth/webhook')).body.deliveries[0];

      // An allowed address where nothing listens: a plain connection failure.
      const unlucky = (await signedInClient(server, 'unlucky')).client;
      await setEndpoint(unlucky, `http://127.0.0.1:${closedPort}/hook`);
      expect((await unlucky.post('/api/auth/webhook/test')).status).toBe(202);
      await server.settled();
      const failed = (await unlucky.get('/api/auth/webhook')).body.deliveries[0];

      const seen = (delivery: Record<string, unknown>) => ({ status: delivery.status, attempts: delivery.attempts, last_status_code: delivery.last_status_code, last_error: delivery.last_error });
      expect(seen(refused)).toEqual({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'Delivery failed' });
      expect(seen(failed)).toEqual(seen(refused));
      // Removed again, so their pending retries stay out of the later tests' delivery passes.
      expect((await rebinder.request('DELETE', '/api/auth/webhook')).status).toBe(204);
      expect((await unlucky.request('DELETE', '/api/auth/webhook')).status).toBe(204);
    } finally {
      inside.close();
    }
  });

  it('keeps the secret when the URL changes, makes a new one when asked, and is removed by DELETE', async () => {
    const other = (await signedInClient(server, 'rotator')).client;
    const first = await setEndpoint(other, receiver.url);
    expect(first.endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const moved = await setEndpoint(other, `${receiver.url}?moved=1`);
    expect(moved.endpoint.secret).toBe(first.endpoint.secret);
    const rotated = await setEndpoint(other, receiver.url, true);
    expect(rotated.endpoint.secret).not.toBe(first.endpoint.secret);
    // The secret is derived, not stored: the database holds only a nonce.
    const row = await server.app.repos.webhooks.endpointOf((await server.app.repos.users.findByUsername('rotator'))!.id);
    expect(JSON.stringify(row)).not.toContain(rotated.endpoint.secret.slice(6));
    expect((await other.request('DELETE', '/api/auth/webhook')).status).toBe(204);
    expect((await other.get('/api/auth/webhook')).body.endpoint).toBeNull();
  });
});

describe('events', () => {
  it('a test event arrives signed; the signature fails for another secret or a changed body', async () => {
    const { endpoint } = await setEndpoint(admin, receiver.url);
    const sent = await admin.post('/api/auth/webhook/test');
    expect(sent.status).toBe(202);
    await server.settled();
    const received = receiver.received.at(-1)!;
    expect(received.headers['sealdrop-event']).toBe('webhook.test');
    const event = JSON.parse(received.body);
    expect(event).toMatchObject({ type: 'webhook.test', data: { message: 'This is a test event from Sealdrop.' } });
    expect(received.headers['sealdrop-delivery']).toBe(event.id);
    expect(String(received.headers['sealdrop-signature'])).toMatch(new RegExp(`^t=${received.headers['sealdrop-timestamp']},v1=[0-9a-f]{64}$`));
    expect(verify(endpoint.secret, received)).toBe(true);
    expect(verify(`${endpoint.secret}x`, received)).toBe(false);
    expect(verify(endpoint.secret, { ...received, body: received.body.replace('test event', 'tost event') })).toBe(false);

    const listed = await admin.get('/api/auth/webhook');
    expect(listed.body.deliveries[0]).toMatchObject({ id: sent.body.delivery_id, event_type: 'webhook.test', status: 'delivered', attempts: 1, last_status_code: 200 });
  });

  it('upload.completed, link.created, link.downloaded and files.deleted carry ids, sizes, hashes and paths', async () => {
    await setEndpoint(admin, receiver.url);
    const folder = await createFolder(admin, `Hooked ${randomBytes(3).toString('hex')}`);
    const token = (await admin.get(`/api/folders/${folder.id}`)).body.link_token as string;
    const content = randomBytes(server.app.uploads.sizes.encryptedLength(2000));
    const body = new MultipartBody().files([{ name: 'scan.pdf', data: content, relativePath: 'inbox', hash: 'ab'.repeat(32) }]);
    const uploaded = await postMultipart(server.client(), `/api/upload/${token}`, body);
    expect(uploaded.status).toBe(200);
    const fileId = uploaded.body.successful_files[0].id as number;
    await server.settled();
    const completed = receiver.events('upload.completed').at(-1)!;
    expect(completed.data).toEqual({
      folder_id: folder.id,
      uploader_email: null,
      files: [{ id: fileId, path: 'inbox/scan.pdf', size: 2000, sha256: 'ab'.repeat(32) }],
    });

    const link = await admin.post('/api/download/links', { file_ids: [fileId], password: null, max_downloads: 2 });
    expect(link.status).toBe(201);
    await server.settled();
    const created = receiver.events('link.created').at(-1)!;
    expect(created.data).toMatchObject({ folder_id: folder.id, file_ids: [fileId], has_password: false, max_downloads: 2 });
    // The link's token is the recipient's capability: it never leaves in an event.
    expect(JSON.stringify(receiver.received)).not.toContain(link.body.link_token);

    const recipient = server.client();
    expect((await getBytes(recipient, `/api/download/${link.body.link_token}/file/${fileId}`)).status).toBe(200);
    await server.settled();
    expect(receiver.events('link.downloaded').at(-1)!.data).toMatchObject({ folder_id: folder.id, file_id: fileId });

    expect((await admin.post('/api/folders/files/delete', { file_ids: [fileId] })).status).toBe(200);
    await server.settled();
    expect(receiver.events('files.deleted').at(-1)!.data).toEqual({ file_ids: [fileId] });
  });
});

describe('a resumable (tus) upload', () => {
  it('gives one upload.completed event, one files.uploaded entry and one notification, however often it is completed', async () => {
    await setEndpoint(admin, receiver.url);
    const folder = await createFolder(admin, `Resumed ${randomBytes(3).toString('hex')}`);
    const owner = (await server.app.repos.users.findByUsername('hooked'))!;
    const full = (await server.app.repos.folders.findOwned(owner.id, folder.id))!;
    const uploader = server.client();
    const data = randomBytes(server.app.uploads.sizes.encryptedLength(3000));
    const { id } = await tusUploadAll(uploader, full, data, { filename: 'big.iso', relativePath: 'images', plainSize: 3000 });
    const eventsBefore = receiver.events('upload.completed').length;
    const complete = () => uploader.post(uploadPath(full, '/complete'), { uploads: [{ upload_id: id, file_hash: 'cd'.repeat(32) }] });
    const first = await complete();
    expect(first.status).toBe(200);
    const fileId = first.body.successful_files[0].id as number;
    // A client that lost the answer completes again: the same record, told nobody twice.
    expect((await complete()).body.successful_files[0].id).toBe(fileId);
    await server.settled();
    const events = receiver.events('upload.completed').slice(eventsBefore);
    expect(events.map((event) => event.data)).toEqual([{ folder_id: folder.id, uploader_email: null, files: [{ id: fileId, path: 'images/big.iso', size: 3000, sha256: 'cd'.repeat(32) }] }]);
    const uploads = ((await admin.get(`/api/activity?folder_id=${folder.id}&kind=files.uploaded`)).body.entries as Array<{ details: unknown }>).map((entry) => entry.details);
    expect(uploads).toEqual([{ files: 1, bytes: 3000, uploader_email: null }]);
    const told = await server.app.repos.uploadNotifications.pendingEvents(folder.id);
    expect(told.map((event) => event.fileIds)).toEqual([[fileId]]);
  });
});

describe('folder.expired', () => {
  it('is sent once when a folder\'s expiry passes, however many passes run at once', async () => {
    await setEndpoint(admin, receiver.url);
    const user = (await server.app.repos.users.findByUsername('hooked'))!;
    const folder = await createFolderOf(server, user.id, { title: 'Closing soon', performMimeCheck: false, expirationDate: server.clock.now() + 60_000 });
    await server.app.notifications.notifyUploads(server.clock.now());
    await server.settled();
    expect(receiver.events('folder.expired').filter((event) => event.data.folder_id === folder.id)).toHaveLength(0);

    const later = server.clock.now() + 61_000;
    await Promise.all([1, 2, 3].map(() => server.app.notifications.notifyUploads(later)));
    await server.settled();
    const announced = receiver.events('folder.expired').filter((event) => event.data.folder_id === folder.id);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.data.expired_at).toBe(new Date(folder.expirationDate!).toISOString());
    const log = (await admin.get(`/api/activity?folder_id=${folder.id}&kind=folder.expired`)).body.entries;
    expect(log).toHaveLength(1);
  });
});

describe('delivery faults', () => {
  it('retries after 500s with backoff, the same event id each time, until the receiver takes it', async () => {
    await setEndpoint(admin, receiver.url);
    receiver.status = 500;
    const before = receiver.received.length;
    try {
      const sent = await admin.post('/api/auth/webhook/test');
      await server.settled();
      const deliveries = async () => (await admin.get('/api/auth/webhook')).body.deliveries as Array<Record<string, unknown>>;
      expect((await deliveries()).find((d) => d.id === sent.body.delivery_id)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500' });
      // Not again before the first retry delay (30 s)...
      expect((await server.app.webhooks.deliverDue(server.clock.now() + 29_000)).retrying).toBe(0);
      // ...then again, failing again...
      expect((await server.app.webhooks.deliverDue(server.clock.now() + 31_000)).retrying).toBe(1);
      receiver.status = 200;
      // ...and the next one (after 60 s more) is taken.
      expect((await server.app.webhooks.deliverDue(server.clock.now() + 31_000 + 59_000)).delivered).toBe(0);
      expect((await server.app.webhooks.deliverDue(server.clock.now() + 31_000 + 61_000)).delivered).toBe(1);
      const attempts = receiver.received.slice(before);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((item) => item.headers['sealdrop-delivery'])).size).toBe(1);
      expect((await deliveries()).find((d) => d.id === sent.body.delivery_id)).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
    } finally {
      receiver.status = 200;
    }
  });

  it('an upload answers while the receiver hangs; the hung delivery times out and stays queued', async () => {
    await setEndpoint(admin, receiver.url);
    const folder = await createFolder(admin, `Hung ${randomBytes(3).toString('hex')}`);
    const token = (await admin.get(`/api/folders/${folder.id}`)).body.link_token as string;
    receiver.hang = true;
    try {
      const hungBefore = receiver.received.length;
      // A first event, so a delivery is already hanging when the upload starts.
      await admin.post('/api/auth/webhook/test');
      await expect.poll(() => receiver.received.length).toBe(hungBefore + 1);
      const body = new MultipartBody().files([{ name: 'a.pdf', data: randomBytes(server.app.uploads.sizes.encryptedLength(10)) }]);
      const uploaded = await postMultipart(server.client(), `/api/upload/${token}`, body);
      expect(uploaded.status).toBe(200);
      // The upload has its answer while its own delivery has not finished (no outcome recorded yet):
      // the request never waited for the receiver.
      const whileHanging = (await admin.get('/api/auth/webhook')).body.deliveries as Array<Record<string, unknown>>;
      expect(whileHanging.filter((d) => d.event_type === 'upload.completed')[0]).toMatchObject({ status: 'pending', last_error: null, last_status_code: null });
      await server.settled();
      const deliveries = (await admin.get('/api/auth/webhook')).body.deliveries as Array<Record<string, unknown>>;
      expect(deliveries.filter((d) => d.event_type === 'upload.completed')[0]).toMatchObject({ status: 'pending', last_error: 'Delivery failed', last_status_code: null });
    } finally {
      receiver.hang = false;
    }
  });
});

describe('why a delivery failed', () => {
  it('is in the server log (the refused address and its kind, never the URL or the secret), not in the delivery list', async () => {
    const lines: string[] = [];
    // Public when saved, private when sent: refused as it connects, so no connection is opened.
    let address = '93.184.216.34';
    const logged = await startServer({
      env: { WEBHOOK_CHECK_SECONDS: '0', LOG_LEVEL: 'warn' },
      ownPublicUrl: true,
      resolveHost: async () => [{ address, family: 4 }],
      logStream: { write: (line: string) => lines.push(line) },
    });
    try {
      const client = (await signedInClient(logged, 'logged')).client;
      const saved = await client.request('PUT', '/api/auth/webhook', { json: { url: 'https://logged.example/hooks/path-token-4f1c' } });
      expect(saved.status).toBe(200);
      const secret = saved.body.endpoint.secret as string;
      address = '10.0.0.1';
      expect((await client.post('/api/auth/webhook/test')).status).toBe(202);
      await logged.settled();
      const delivery = (await client.get('/api/auth/webhook')).body.deliveries[0];
      expect(delivery).toMatchObject({ last_status_code: null, last_error: 'Delivery failed' });
      const failures = lines.filter((line) => line.includes('webhook delivery failed'));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('Refused address 10.0.0.1 (private)');
      const all = lines.join('\n');
      expect(all).not.toContain('path-token-4f1c');
      expect(all).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});
