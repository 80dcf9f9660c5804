// Addresses the server hands out come from PUBLIC_URL, never from a Host header a stranger chose:
// an upload sent with a forged Host leaves nothing in the notification e-mail, a download link
// asked for through a forged Host is refused when PUBLIC_URL is set, and without PUBLIC_URL no
// webhook can be saved (its events are read far from the request). Requests go over real HTTP
// with the Host header written by hand (fetch always sends the URL's own).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { createFolder, seedFile } from './files-fixtures.ts';
import { createFolderOf, MailCatcher, MultipartBody, uploadPath } from './upload-helpers.ts';

const FORGED_HOST = 'evil.example';

/** One request through `client`'s session and CSRF token, with the Host header set to `host`. */
async function sendWithHost(
  client: TestClient,
  method: string,
  requestPath: string,
  host: string,
  body: Buffer,
  contentType: string,
): Promise<{ status: number; body: any }> {
  await client.primeCsrf();
  const target = new URL(client.baseUrl + requestPath);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: {
          host,
          'content-type': contentType,
          'content-length': String(body.length),
          cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(client.csrfToken ? { 'x-csrftoken': client.csrfToken } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const isJson = response.headers['content-type']?.includes('application/json');
          resolve({ status: response.statusCode ?? 0, body: isJson && text ? JSON.parse(text) : text });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** One small file uploaded to `folderToken`'s upload link through a forged Host. */
async function uploadWithHost(server: TestServer, folder: Parameters<typeof uploadPath>[0], host: string) {
  const body = new MultipartBody().files([{ name: 'invoice.pdf', data: Buffer.alloc(server.app.uploads.sizes.encryptedLength(1000), 1) }]);
  return sendWithHost(server.client(), 'POST', uploadPath(folder), host, body.build(), body.contentType);
}

function outboxMessages(server: TestServer): string[] {
  const dir = server.config.mail.outboxDir;
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name), 'utf8'));
}

describe('without PUBLIC_URL (the default single-machine start)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { NOTIFY_CHECK_SECONDS: '0', NOTIFY_QUIET_SECONDS: '0' } });
  });
  afterAll(() => server?.close());

  it('an upload through a forged Host puts no address of it into the notification e-mail', async () => {
    const owner = await server.createUser('owner_forged', 'owner password', 'owner@example.com');
    const folder = await createFolderOf(server, owner.id, { title: 'Receipts', performMimeCheck: false });
    const uploaded = await uploadWithHost(server, folder, `${FORGED_HOST}:8080`);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    server.clock.advance(1000);
    expect((await server.app.notifications.notifyUploads(server.clock.now())).sent).toBe(1);
    const messages = outboxMessages(server).filter((message) => message.includes('Receipts'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).not.toContain(FORGED_HOST);
    expect(messages[0]).not.toMatch(/https?:\/\//);
    expect(messages[0]).toContain(`folder ${folder.id}`);
  });

  it('refuses to save a webhook, saying PUBLIC_URL must be set', async () => {
    const { client } = await signedInClient(server, 'webhook_admin');
    const saved = await client.put('/api/auth/webhook', { url: 'https://hooks.example.com/sealdrop' });
    expect(saved.status).toBe(409);
    expect(saved.body).toEqual({ code: 'WEBHOOK_NEEDS_PUBLIC_URL', detail: 'Webhooks need the server setting PUBLIC_URL (the address people open). Ask the operator to set it.' });
    expect((await client.get('/api/auth/webhook')).body.endpoint).toBeNull();
  });

  it('still answers a download link with the origin the admin\'s own request came to', async () => {
    const { client } = await signedInClient(server, 'link_admin');
    const folder = await createFolder(client, 'Shared');
    const file = await seedFile(server, folder.id);
    const created = await client.post('/api/download/links', { file_ids: [file.id] });
    expect(created.status).toBe(201);
    expect(created.body.full_url).toBe(`${server.baseUrl}/download/${created.body.link_token}`);
  });
});

describe('with PUBLIC_URL set', () => {
  const mail = new MailCatcher();
  let server: TestServer;
  beforeAll(async () => {
    const smtpUrl = await mail.start();
    server = await startServer({ env: { PUBLIC_URL: 'https://files.example.com', SMTP_URL: smtpUrl, NOTIFY_CHECK_SECONDS: '0', NOTIFY_QUIET_SECONDS: '0' } });
  });
  afterAll(async () => {
    await server?.close();
    await mail.stop();
  });

  it('refuses to create a download link through a Host other than PUBLIC_URL\'s', async () => {
    const { client } = await signedInClient(server, 'alice');
    const folder = await createFolder(client, 'Published');
    const file = await seedFile(server, folder.id);
    const body = Buffer.from(JSON.stringify({ file_ids: [file.id] }));
    const forged = await sendWithHost(client, 'POST', '/api/download/links', FORGED_HOST, body, 'application/json');
    expect(forged.status).toBe(421);
    expect(forged.body).toEqual({ code: 'HOST_NOT_ALLOWED', detail: 'This server answers at https://files.example.com only; open it through that address.' });
    const sameNameOtherPort = await sendWithHost(client, 'POST', '/api/download/links', 'files.example.com:8443', body, 'application/json');
    expect(sameNameOtherPort.status).toBe(421);

    const proper = await sendWithHost(client, 'POST', '/api/download/links', 'FILES.example.com:443', body, 'application/json');
    expect(proper.status).toBe(201);
    expect(proper.body.full_url).toBe(`https://files.example.com/download/${proper.body.link_token}`);
  });

  it('mails the PUBLIC_URL address for an upload sent through a forged Host', async () => {
    const owner = await server.createUser('owner_public', 'owner password', 'owner.public@example.com');
    const folder = await createFolderOf(server, owner.id, { title: 'Contracts', performMimeCheck: false });
    expect((await uploadWithHost(server, folder, FORGED_HOST)).status).toBe(200);
    server.clock.advance(1000);
    expect((await server.app.notifications.notifyUploads(server.clock.now())).sent).toBe(1);
    const message = mail.messages.find((text) => text.includes('Contracts'));
    expect(message).toBeDefined();
    expect(message).not.toContain(FORGED_HOST);
    expect(message).toContain(`https://files.example.com/folders/view/${folder.id}`);
  });
});

describe('with PUBLIC_URL set behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: 'true' }, ownPublicUrl: true });
  });
  afterAll(() => server?.close());

  it('refuses a download link asked for with an X-Forwarded-Host other than PUBLIC_URL\'s, and takes the matching one', async () => {
    const { client } = await signedInClient(server, 'proxied');
    const folder = await createFolder(client, 'Behind the proxy');
    const file = await seedFile(server, folder.id);
    const forged = await client.post('/api/download/links', { file_ids: [file.id] }, { headers: { 'x-forwarded-host': FORGED_HOST } });
    expect(forged.status).toBe(421);
    expect(forged.body.code).toBe('HOST_NOT_ALLOWED');
    const forwarded = await client.post('/api/download/links', { file_ids: [file.id] }, { headers: { 'x-forwarded-host': new URL(server.env.PUBLIC_URL!).host } });
    expect(forwarded.status).toBe(201);
    expect(forwarded.body.full_url).toBe(`${server.env.PUBLIC_URL}/download/${forwarded.body.link_token}`);
  });
});
