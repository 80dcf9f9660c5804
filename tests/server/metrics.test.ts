// Prometheus metrics (docs/operations.md, "Metrics") over real HTTP: off unless configured (then
// /metrics is a 404, never the app page); behind a bearer token on the app's port; on a port of
// their own; and each listed series moves when its event happens: request latency by route,
// uploads in flight, bytes received (tus PATCH and multipart) and stored, tus PATCH sizes,
// attempt-limit refusals, sweep runs and removals, mail and webhook deliveries.
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { noMetrics } from '../../server/metrics/metrics-recorder.ts';
import { signedInClient, startServer, type TestServer } from './harness.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  MailCatcher,
  MultipartBody,
  postMultipart,
  sha256,
  tusCreate,
  tusPatch,
  uploadPath,
} from './upload-helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';
const MiB = 1024 * 1024;

let server: TestServer | undefined;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function scrape(url: string, token: string | null = TOKEN): Promise<string> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one sample: `name{labels}` exactly as Prometheus text shows it (labels in their order). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (wanted.every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return 0;
}

describe('where /metrics is served', () => {
  it('is off by default: the recorder does nothing and /metrics answers 404 JSON, not the app page', async () => {
    server = await startServer();
    expect(server.app.metrics).toBe(noMetrics);
    const response = await server.client().get('/metrics');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
  });

  it('METRICS_TOKEN: served on the app port to a scrape with the bearer token only', async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
    const url = `${server.baseUrl}/metrics`;
    const without = await fetch(url);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect(await without.json()).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(1), 'Basic abc']) {
      const refused = await fetch(url, { headers: { authorization: wrong.startsWith('Basic') ? wrong : `Bearer ${wrong}` } });
      expect(refused.status, wrong).toBe(401);
    }
    const text = await scrape(url);
    expect(text).toContain('# TYPE sealdrop_http_request_duration_seconds histogram');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('METRICS_PORT: served on its own listener (with the token when one is set); the app port answers 404', async () => {
    const port = await freePort();
    server = await startServer({ env: { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN } });
    expect(server.app.metricsPort).toBe(port);
    expect((await server.client().get('/metrics')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    expect(await scrape(`http://127.0.0.1:${port}/metrics`)).toContain('sealdrop_uploads_in_flight 0');
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/users/me`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await server.close();
    server = undefined;
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('METRICS_PORT without a token: open on that port (for a network only the scraper reaches)', async () => {
    const port = await freePort();
    server = await startServer({ env: { METRICS_PORT: String(port) } });
    expect(await scrape(`http://127.0.0.1:${port}/metrics`, null)).toContain('sealdrop_upload_sweep_runs_total');
  });
});

describe('the series move when their events happen', () => {
  it('request latency by route, uploads in flight, tus and multipart bytes received and stored, tus PATCH sizes', async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
    const metricsUrl = `${server.baseUrl}/metrics`;
    const folder = await createUploadFolder(server);
    const client = server.client();
    const statusRoute = { method: 'GET', route: '/api/upload/:link_token/status', status: '200' };
    const before = await scrape(metricsUrl);
    expect(sample(before, 'sealdrop_http_request_duration_seconds_count', statusRoute)).toBe(0);
    for (let i = 0; i < 3; i++) await client.get(uploadPath(folder, '/status'));
    await server.settled();
    expect(sample(await scrape(metricsUrl), 'sealdrop_http_request_duration_seconds_count', statusRoute)).toBe(3);

    // A PATCH that is still streaming is an upload in flight.
    const plainSize = 3 * MiB;
    const body = fakeCiphertext(server, plainSize);
    const location = (await tusCreate(client, folder, body.length, { filename: 'big.bin', plainSize })).headers.get('location')!;
    const url = new URL(server.baseUrl + location);
    const cookies = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let releasePatch = () => {};
    const answered = new Promise<number>((resolve, reject) => {
      const patch = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PATCH',
          headers: {
            'tus-resumable': '1.0.0',
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
            'content-length': String(body.length),
            cookie: cookies,
            'x-csrftoken': client.csrfToken!,
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      patch.on('error', reject);
      patch.write(body.subarray(0, MiB));
      releasePatch = () => patch.end(body.subarray(MiB));
    });
    await expect.poll(async () => sample(await scrape(metricsUrl), 'sealdrop_uploads_in_flight')).toBe(1);
    releasePatch();
    expect(await answered).toBe(204);
    await server.settled();
    let text = await scrape(metricsUrl);
    expect(sample(text, 'sealdrop_uploads_in_flight')).toBe(0);
    expect(sample(text, 'sealdrop_upload_bytes_received_total', { transport: 'tus' })).toBe(body.length);
    expect(sample(text, 'sealdrop_tus_patch_bytes_count')).toBe(1);
    expect(sample(text, 'sealdrop_tus_patch_bytes_sum')).toBe(body.length);
    expect(sample(text, 'sealdrop_tus_patch_bytes_bucket', { le: String(4 * MiB) })).toBe(1);
    expect(sample(text, 'sealdrop_tus_patch_bytes_bucket', { le: String(MiB) })).toBe(0);
    expect(sample(text, 'sealdrop_files_stored_total', { transport: 'tus' })).toBe(0);

    const uploadId = location.split('/').pop()!;
    const completed = await client.post(uploadPath(folder, '/complete'), { uploads: [{ upload_id: uploadId, file_hash: sha256('whatever') }] });
    expect(completed.body.successful_files).toHaveLength(1);
    // Completing again answers the same record: nothing new is stored.
    await client.post(uploadPath(folder, '/complete'), { uploads: [{ upload_id: uploadId, file_hash: sha256('whatever') }] });
    text = await scrape(metricsUrl);
    expect(sample(text, 'sealdrop_files_stored_total', { transport: 'tus' })).toBe(1);
    expect(sample(text, 'sealdrop_stored_bytes_total', { transport: 'tus' })).toBe(body.length);

    // A multipart batch of two files; its repeat (same Idempotency-Key) stores nothing more.
    const files = [Buffer.from('first file'), Buffer.from('second, longer file')];
    const batch = new MultipartBody().files(files.map((plain, i) => ({ name: `f${i}.txt`, data: fakeCiphertext(server!, plain.length), hash: sha256(plain) })));
    const bodyBytes = batch.build().length;
    const key = 'batch-key-0123456789abcdef';
    const sendBatch = () =>
      fetch(server!.baseUrl + uploadPath(folder), {
        method: 'POST',
        body: new Uint8Array(batch.build()),
        headers: { 'content-type': batch.contentType, cookie: cookies, 'x-csrftoken': client.csrfToken!, 'idempotency-key': key },
      });
    expect((await sendBatch()).status).toBe(200);
    expect((await sendBatch()).status).toBe(200);
    await server.settled();
    text = await scrape(metricsUrl);
    expect(sample(text, 'sealdrop_files_stored_total', { transport: 'multipart' })).toBe(2);
    expect(sample(text, 'sealdrop_stored_bytes_total', { transport: 'multipart' })).toBe(
      files.reduce((sum, plain) => sum + server!.app.uploads.sizes.encryptedLength(plain.length), 0),
    );
    expect(sample(text, 'sealdrop_upload_bytes_received_total', { transport: 'multipart' })).toBe(bodyBytes);
    expect(sample(text, 'sealdrop_http_request_duration_seconds_count', { method: 'PATCH', route: '/api/upload/:link_token/tus/:upload_id', status: '204' })).toBe(1);
  });

  it('attempt-limit refusals by route, sweep runs and what they removed', async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_ACCOUNT_FAILURES: '2', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' } });
    const metricsUrl = `${server.baseUrl}/metrics`;
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = server.client();
    await client.get(uploadPath(folder, '/status'));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.post(uploadPath(folder, '/verify-password'), { link_password: 'wrong' })).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
    await server.settled();
    expect(sample(await scrape(metricsUrl), 'sealdrop_attempt_limit_refusals_total', { route: '/api/upload/:link_token/verify-password' })).toBe(2);

    // An unfinished upload of another (open) link, abandoned, then swept.
    const open = await createUploadFolder(server);
    const uploader = server.client();
    await uploader.get(uploadPath(open, '/status'));
    const body = fakeCiphertext(server, 1000);
    const location = (await tusCreate(uploader, open, body.length, { filename: 'left.bin', plainSize: 1000 })).headers.get('location')!;
    expect((await tusPatch(uploader, location, 0, body.subarray(0, 500))).status).toBe(204);
    await server.app.sweepUploads();
    let text = await scrape(metricsUrl);
    expect(sample(text, 'sealdrop_upload_sweep_runs_total', { outcome: 'ran' })).toBe(1);
    expect(sample(text, 'sealdrop_upload_sweep_removed_total', { kind: 'abandoned_uploads' })).toBe(0);
    server.clock.advance(server.config.upload.abandonAfterMs + 60_000);
    await server.app.sweepUploads();
    text = await scrape(metricsUrl);
    expect(sample(text, 'sealdrop_upload_sweep_runs_total', { outcome: 'ran' })).toBe(2);
    expect(sample(text, 'sealdrop_upload_sweep_removed_total', { kind: 'abandoned_uploads' })).toBe(1);
  });

  it('mail sent and refused, webhook deliveries delivered and retried', async () => {
    const mail = new MailCatcher();
    const smtpUrl = await mail.start();
    cleanups.push(() => mail.stop());
    const receiver: { status: number; server: Server } = { status: 200, server: createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(receiver.status).end())) };
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
    server = await startServer({ env: { METRICS_TOKEN: TOKEN, SMTP_URL: smtpUrl, PUBLIC_URL: 'https://sealdrop.test', WEBHOOK_CHECK_SECONDS: '0', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
    const metricsUrl = `${server.baseUrl}/metrics`;

    const folder = await createUploadFolder(server, { requireEmail: true });
    const uploader = server.client();
    await uploader.get(uploadPath(folder, '/status'));
    expect((await uploader.post(uploadPath(folder, '/request-code'), { uploader_email: 'a@example.com' })).status).toBe(200);
    expect(sample(await scrape(metricsUrl), 'sealdrop_mail_messages_total', { outcome: 'sent' })).toBe(1);
    await mail.stop();
    const refused = await uploader.post(uploadPath(folder, '/request-code'), { uploader_email: 'b@example.com' });
    expect(refused.status).toBe(500);
    expect(sample(await scrape(metricsUrl), 'sealdrop_mail_messages_total', { outcome: 'failed' })).toBe(1);

    const { client: admin } = await signedInClient(server, 'hooker');
    const port = (receiver.server.address() as net.AddressInfo).port;
    expect((await admin.put('/api/auth/webhook', { url: `http://127.0.0.1:${port}/hook` })).status).toBe(200);
    expect((await admin.post('/api/auth/webhook/test')).status).toBe(202);
    await server.settled();
    expect(sample(await scrape(metricsUrl), 'sealdrop_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
    receiver.status = 500;
    expect((await admin.post('/api/auth/webhook/test')).status).toBe(202);
    await server.settled();
    expect(sample(await scrape(metricsUrl), 'sealdrop_webhook_deliveries_total', { outcome: 'retrying' })).toBe(1);
  });
});
