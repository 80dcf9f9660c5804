// Without SMTP_URL the verification code goes to DATA_DIR/outbox as an .eml file (the embedded
// default needs no mail server); the code read from there opens the link. An unreachable SMTP
// server is a 500, not a silent success.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import { codeIn, createUploadFolder, fakeCiphertext, MultipartBody, postMultipart, uploadPath } from './upload-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('writes the code mail to the outbox, and that code verifies', async () => {
  const folder = await createUploadFolder(server, { requireEmail: true, title: 'Outbox folder' });
  const client = server.client();
  await client.primeCsrf();
  const sent = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'eve@example.com' });
  expect(sent.status).toBe(200);

  const outbox = path.join(server.config.dataDir, 'outbox');
  const files = fs.readdirSync(outbox).filter((name) => name.endsWith('.eml'));
  expect(files).toHaveLength(1);
  const message = fs.readFileSync(path.join(outbox, files[0]!), 'utf8');
  expect(message).toContain('To: eve@example.com');
  expect(message).toContain('Outbox folder');
  const code = codeIn(message);

  const verified = await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'eve@example.com', verification_code: code });
  expect(verified.status).toBe(200);
  const upload = await postMultipart(client, uploadPath(folder), new MultipartBody().files([{ name: 'x.txt', data: fakeCiphertext(server, 4) }]));
  expect(upload.status).toBe(200);
});

it('answers 500 (and sends nothing) when the mail server cannot be reached', async () => {
  const broken = await startServer({ env: { SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://sealdrop.test' } });
  try {
    const folder = await createUploadFolder(broken, { requireEmail: true });
    const client = broken.client();
    await client.primeCsrf();
    const response = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'eve@example.com' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ detail: 'Internal Server Error', code: 'INTERNAL' });
  } finally {
    await broken.close();
  }
});
