// The upload link's gates, over real HTTP: link status, unknown/inactive/expired links on every
// route, the link password (hashed, rate limited, grant cookie), e-mail codes (sent through a real
// SMTP listener; single use, 10 minutes, 5 tries, bound to link and address, rate limited),
// the allowed-address list, and the gates enforced on the upload requests themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { generateRsaKeyPair } from '../../server/crypto/index.ts';
import { startServer, type TestServer } from './harness.ts';
import { cookieAttributes } from './http-client.ts';
import {
  createUploadFolder,
  fakeCiphertext,
  MailCatcher,
  MultipartBody,
  postMultipart,
  tusCreate,
  uploadPath,
} from './upload-helpers.ts';

let server: TestServer;
const mail = new MailCatcher();

beforeAll(async () => {
  const smtpUrl = await mail.start();
  server = await startServer({
    env: {
      SMTP_URL: smtpUrl,
      PUBLIC_URL: 'https://sealdrop.test',
      TRUST_PROXY: 'true',
      RATE_LIMIT_ACCOUNT_FAILURES: '6',
      RATE_LIMIT_IP_FAILURES: '12',
      UPLOAD_CODE_REQUESTS_PER_ADDRESS: '3',
      UPLOAD_CODE_REQUESTS_PER_IP: '5',
    },
  });
});
afterAll(async () => {
  await server.close();
  await mail.stop();
});

// Each test runs in a fresh rate-limit window and from its own client address.
let ipCounter = 0;
function freshClient() {
  server.clock.advance(16 * 60_000);
  return clientFromNewAddress();
}

function clientFromNewAddress() {
  const client = server.client();
  const ip = `203.0.113.${++ipCounter}`;
  const request = client.request.bind(client);
  client.request = (method, path, options = {}) =>
    request(method, path, { ...options, headers: { 'x-forwarded-for': ip, ...options.headers } });
  return client;
}

function oneFile(name = 'a.txt') {
  return new MultipartBody().files([{ name, data: fakeCiphertext(server, 10) }]);
}

describe('link status', () => {
  it('describes an ungated link', async () => {
    const folder = await createUploadFolder(server, { title: 'Holiday photos', description: 'From the trip' });
    const response = await freshClient().get(uploadPath(folder, '/status'));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      title: 'Holiday photos',
      description: 'From the trip',
      requires_password: false,
      requires_email: false,
      has_allowed_emails_list: false,
      perform_mime_check: true,
      upload_abandon_hours: 24,
    });
  });

  it('names the gates of a gated link, without revealing the list', async () => {
    const folder = await createUploadFolder(server, {
      linkPassword: 'open sesame',
      requireEmail: true,
      allowedEmails: ['a@example.com'],
    });
    const response = await freshClient().get(uploadPath(folder, '/status'));
    expect(response.body).toEqual({
      title: 'Tax documents 2025',
      description: null,
      requires_password: true,
      requires_email: true,
      has_allowed_emails_list: true,
      perform_mime_check: true,
      upload_abandon_hours: 24,
    });
  });
});

describe('unknown, inactive and expired links', () => {
  const routes: Array<[string, string, (c: ReturnType<typeof freshClient>, p: string) => Promise<{ status: number; body: any }>]> = [
    ['GET', '/status', (c, p) => c.get(`${p}/status`)],
    ['GET', '/public-key', (c, p) => c.get(`${p}/public-key`)],
    ['POST', '/verify-password', (c, p) => c.post(`${p}/verify-password`, { link_password: 'x' })],
    ['POST', '/request-code', (c, p) => c.post(`${p}/request-code`, { uploader_email: 'a@example.com' })],
    ['POST', '/verify-code', (c, p) => c.post(`${p}/verify-code`, { uploader_email: 'a@example.com', verification_code: '123456' })],
    ['POST', '/complete', (c, p) => c.post(`${p}/complete`, { uploads: [{ upload_id: 'x', file_hash: 'y' }] })],
    ['POST', '', (c, p) => c.post(p, { not: 'multipart' })],
    ['POST', '/tus', (c, p) => c.request('POST', `${p}/tus`, { headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' } })],
    ['HEAD', '/tus/{id}', (c, p) => c.request('HEAD', `${p}/tus/0123456789abcdef0123456789abcdef`)],
  ];

  it.each(['unknown', 'inactive', 'expired'])('answers 404 "Link invalid/expired." on every route for an %s link', async (kind) => {
    const client = freshClient();
    await client.primeCsrf();
    let prefix = '/api/upload/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    if (kind !== 'unknown') {
      const folder = await createUploadFolder(server, {
        isActive: kind !== 'inactive',
        expirationDate: kind === 'expired' ? server.clock.now() - 1000 : null,
      });
      prefix = uploadPath(folder);
    }
    for (const [method, path, call] of routes) {
      const response = await call(client, prefix);
      expect(response.status, `${method} ${path}`).toBe(404);
      if (method !== 'HEAD') expect(response.body, `${method} ${path}`).toEqual({ detail: 'Link invalid/expired.', code: 'LINK_INVALID' });
    }
  });

  it('refuses a link the moment it expires', async () => {
    const folder = await createUploadFolder(server, { expirationDate: server.clock.now() + 60_000 });
    const client = freshClient();
    // freshClient moved the clock past the expiry.
    expect((await client.get(uploadPath(folder, '/status'))).status).toBe(404);
  });
});

describe('public key', () => {
  it("gives the folder owner's public key, without any gate", async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame', requireEmail: true });
    const { publicKeySpki } = generateRsaKeyPair();
    await server.app.repos.users.setPublicKey(folder.ownerId, publicKeySpki);
    const response = await freshClient().get(uploadPath(folder, '/public-key'));
    expect(response.status).toBe(200);
    // A personal folder: files are sealed to the owner's account key, not to a team folder's epoch.
    expect(response.body).toEqual({ public_key_spki: publicKeySpki, key_epoch: null });
  });

  it('says so when the folder owner has no public key', async () => {
    const folder = await createUploadFolder(server);
    const response = await freshClient().get(uploadPath(folder, '/public-key'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Recipient public key is missing or not configured.', code: 'PUBLIC_KEY_MISSING' });
  });
});

describe('link password', () => {
  it('refuses a wrong password and grants an upload cookie for the right one', async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();

    const wrong = await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame?' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_LINK_PASSWORD' });
    const missing = await client.post(uploadPath(folder, '/verify-password'), {});
    expect(missing.status).toBe(422);

    const before = await postMultipart(client, uploadPath(folder), oneFile());
    expect(before.status).toBe(401);
    expect(before.body).toEqual({ detail: 'Link password required.', code: 'LINK_PASSWORD_REQUIRED' });

    const right = await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ verified: true });
    const cookie = cookieAttributes(right.setCookies, 'sealdrop_upload_grant');
    expect(cookie?.get('path')).toBe(uploadPath(folder));
    expect(cookie?.has('httponly')).toBe(true);
    expect(cookie?.get('samesite')).toBe('Strict');

    const after = await postMultipart(client, uploadPath(folder), oneFile());
    expect(after.status).toBe(200);
    expect(after.body.successful_files).toHaveLength(1);
  });

  it('accepts the password in the multipart request instead of a cookie', async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    const wrong = await postMultipart(client, uploadPath(folder), new MultipartBody().field('link_password', 'nope').files([{ name: 'a', data: fakeCiphertext(server, 3) }]));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_LINK_PASSWORD' });
    const right = await postMultipart(client, uploadPath(folder), new MultipartBody().field('link_password', 'open sesame').files([{ name: 'a', data: fakeCiphertext(server, 3) }]));
    expect(right.status).toBe(200);
    await expect(server.app.repos.files.listForFolder(folder.id)).resolves.toHaveLength(1);
  });

  it('does not let a grant cookie of one link open another', async () => {
    const first = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const second = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();
    await client.post(uploadPath(first, '/verify-password'), { link_password: 'open sesame' });
    // The jar sends every cookie everywhere (a browser would not even send it, given its Path).
    const response = await postMultipart(client, uploadPath(second), oneFile());
    expect(response.status).toBe(401);
  });

  it('shuts out earlier grants when the admin changes the link password', async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();
    await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    await server.app.repos.folders.updateOwned(folder.ownerId, folder.id, { linkPasswordHash: await hashPassword('new secret') });
    const response = await postMultipart(client, uploadPath(folder), oneFile());
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Link password required.', code: 'LINK_PASSWORD_REQUIRED' });
  });

  it('stops accepting passwords after too many failures from one address, even the right one', async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();
    for (let i = 0; i < 6; i++) {
      expect((await client.post(uploadPath(folder, '/verify-password'), { link_password: 'guess' })).status).toBe(401);
    }
    const blocked = await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many failed password attempts\. Try again in \d+ minutes?\.$/);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another uploader (another address) is not locked out by this one.
    const other = clientFromNewAddress();
    await other.primeCsrf();
    expect((await other.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' })).status).toBe(200);
  });
});

describe('e-mail verification', () => {
  async function emailFolder(options: Parameters<typeof createUploadFolder>[1] = {}) {
    return createUploadFolder(server, { requireEmail: true, ...options });
  }

  it('mails a 6-digit code naming the folder, and the right code opens the link', async () => {
    const folder = await emailFolder({ title: 'Contracts' });
    const client = freshClient();
    await client.primeCsrf();
    const blocked = await postMultipart(client, uploadPath(folder), oneFile());
    expect(blocked.status).toBe(401);
    expect(blocked.body).toEqual({ detail: 'E-mail verification required.', code: 'EMAIL_VERIFICATION_REQUIRED' });

    const sent = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'Sam@Example.com' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message: 'Verification code sent to sam@example.com.' });
    const message = mail.messages.at(-1)!;
    expect(message).toContain('Contracts');
    expect(message).toContain('10 minutes');
    const code = mail.lastCodeFor('sam@example.com');
    expect(code).toMatch(/^\d{6}$/);

    const verified = await client.post(uploadPath(folder, '/verify-code'), {
      uploader_email: 'sam@example.com',
      verification_code: code,
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ verified: true });
    expect((await postMultipart(client, uploadPath(folder), oneFile())).status).toBe(200);
  });

  it('sends no code for a link without e-mail verification', async () => {
    const folder = await createUploadFolder(server);
    const client = freshClient();
    await client.primeCsrf();
    const before = mail.messages.length;
    const response = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'x@example.com' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'This link does not use e-mail verification.', code: 'EMAIL_NOT_REQUIRED' });
    expect(mail.messages.length).toBe(before);
  });

  it('accepts the code as a form field too', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    const sent = await client.request('POST', uploadPath(folder, '/request-code'), { form: { uploader_email: 'form@example.com' } });
    expect(sent.status).toBe(200);
  });

  it('validates the address and the code format', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    const badEmail = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'not-an-address' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.detail[0]).toEqual({ loc: ['body', 'uploader_email'], msg: 'Enter a valid e-mail address' });
    const badCode = await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'a@example.com', verification_code: '12345' });
    expect(badCode.status).toBe(422);
    expect(badCode.body.detail[0].msg).toBe('Verification code must be exactly 6 digits.');
  });

  it('refuses a wrong, a reused and an expired code', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    const verify = (code: string) =>
      client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'pat@example.com', verification_code: code });

    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'pat@example.com' });
    const code = mail.lastCodeFor('pat@example.com');
    const wrong = await verify(code === '000000' ? '000001' : '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: 'Invalid or expired verification code.', code: 'INVALID_CODE' });
    expect((await verify(code)).status).toBe(200);
    const reused = await verify(code);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ detail: 'Invalid or expired verification code.', code: 'INVALID_CODE' });

    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'pat@example.com' });
    const late = mail.lastCodeFor('pat@example.com');
    server.clock.advance(10 * 60_000 + 1);
    expect((await verify(late)).status).toBe(400);
  });

  it('kills a code after 5 wrong tries', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    const verify = (code: string) =>
      client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'kim@example.com', verification_code: code });
    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'kim@example.com' });
    const code = mail.lastCodeFor('kim@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await verify(wrong)).status).toBe(400);
    const dead = await verify(code);
    expect(dead.status).toBe(400);
    expect(dead.body).toEqual({ detail: 'Invalid or expired verification code.', code: 'INVALID_CODE' });
  });

  it('binds a code to its link and its address', async () => {
    const folder = await emailFolder();
    const other = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'lee@example.com' });
    const code = mail.lastCodeFor('lee@example.com');
    const otherAddress = await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'someone@example.com', verification_code: code });
    expect(otherAddress.status).toBe(400);
    const otherLink = await client.post(uploadPath(other, '/verify-code'), { uploader_email: 'lee@example.com', verification_code: code });
    expect(otherLink.status).toBe(400);
    expect((await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'lee@example.com', verification_code: code })).status).toBe(200);
  });

  it('sends a code only to an address on the allowed list (case-insensitively)', async () => {
    const folder = await emailFolder({ allowedEmails: ['Boss@Example.com'] });
    const client = freshClient();
    await client.primeCsrf();
    const refused = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'intruder@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'This e-mail address is not allowed to upload to this link.', code: 'EMAIL_NOT_ALLOWED' });
    const before = mail.messages.length;
    expect((await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'boss@example.com' })).status).toBe(200);
    expect(mail.messages.length).toBe(before + 1);
  });

  it('trims the address the uploader typed: an allowed address with spaces around it is that address', async () => {
    const folder = await emailFolder({ allowedEmails: ['Boss@Example.com'] });
    const client = freshClient();
    await client.primeCsrf();
    const sent = await client.post(uploadPath(folder, '/request-code'), { uploader_email: '  Boss@Example.com ' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message: 'Verification code sent to boss@example.com.' });
    const code = mail.lastCodeFor('boss@example.com');
    const verified = await client.post(uploadPath(folder, '/verify-code'), { uploader_email: '\tboss@example.com\n', verification_code: code });
    expect(verified.status).toBe(200);
    // An API client sends the same address (spaces and all) with its upload.
    const apiClient = freshClient();
    const upload = await postMultipart(
      apiClient,
      uploadPath(folder),
      new MultipartBody().field('uploader_email', ' boss@example.com ').field('verification_code', code).files([
        { name: 'a.txt', data: fakeCiphertext(server, 10) },
      ]),
    );
    expect(upload.status).toBe(200);
  });

  it('re-checks the list at upload time', async () => {
    const folder = await emailFolder({ allowedEmails: ['ann@example.com'] });
    const client = freshClient();
    await client.primeCsrf();
    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'ann@example.com' });
    await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'ann@example.com', verification_code: mail.lastCodeFor('ann@example.com') });
    await server.app.repos.folders.updateOwned(folder.ownerId, folder.id, { allowedEmails: ['bob@example.com'] });
    const response = await postMultipart(client, uploadPath(folder), oneFile());
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'This e-mail address is not allowed to upload to this link.', code: 'EMAIL_NOT_ALLOWED' });
  });

  it('asks for the password before sending a code when the link has both', async () => {
    const folder = await emailFolder({ linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();
    const early = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'max@example.com' });
    expect(early.status).toBe(401);
    expect(early.body).toEqual({ detail: 'Link password required.', code: 'LINK_PASSWORD_REQUIRED' });
    await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    expect((await postMultipart(client, uploadPath(folder), oneFile())).status).toBe(401);
    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'max@example.com' });
    const verified = await client.post(uploadPath(folder, '/verify-code'), {
      uploader_email: 'max@example.com',
      verification_code: mail.lastCodeFor('max@example.com'),
    });
    expect(verified.status).toBe(200);
    expect((await postMultipart(client, uploadPath(folder), oneFile())).status).toBe(200);
  });

  it('lets an API client send the password, address and verified code with the upload', async () => {
    const folder = await emailFolder({ linkPassword: 'open sesame' });
    const browser = freshClient();
    await browser.primeCsrf();
    await browser.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    await browser.post(uploadPath(folder, '/request-code'), { uploader_email: 'api@example.com' });
    const code = mail.lastCodeFor('api@example.com');
    await browser.post(uploadPath(folder, '/verify-code'), { uploader_email: 'api@example.com', verification_code: code });

    const api = server.client();
    const body = () =>
      new MultipartBody()
        .field('link_password', 'open sesame')
        .field('uploader_email', 'api@example.com')
        .field('verification_code', code)
        .files([{ name: 'report.pdf', data: fakeCiphertext(server, 100) }]);
    const first = await postMultipart(api, uploadPath(folder), body());
    expect(first.status).toBe(200);
    expect(first.body.successful_files).toHaveLength(1);
    // Within the grant lifetime the verified code keeps working for further batches.
    expect((await postMultipart(api, uploadPath(folder), body())).status).toBe(200);
    const wrongCode = new MultipartBody()
      .field('link_password', 'open sesame')
      .field('uploader_email', 'api@example.com')
      .field('verification_code', code === '999999' ? '999998' : '999999')
      .files([{ name: 'x', data: fakeCiphertext(server, 1) }]);
    expect((await postMultipart(api, uploadPath(folder), wrongCode)).status).toBe(400);
  });

  it('limits code requests per address and per client address', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    for (let i = 0; i < 3; i++) {
      expect((await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'spam@example.com' })).status).toBe(200);
    }
    const perAddress = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'spam@example.com' });
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.detail).toMatch(/^Too many verification code requests\./);
    expect(perAddress.body.code).toBe('RATE_LIMITED');
    for (const address of ['spam2@example.com', 'spam3@example.com']) {
      expect((await client.post(uploadPath(folder, '/request-code'), { uploader_email: address })).status).toBe(200);
    }
    const perIp = await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'spam4@example.com' });
    expect(perIp.status).toBe(429);
  });

  it('limits wrong codes per address', async () => {
    const folder = await emailFolder();
    const client = freshClient();
    await client.primeCsrf();
    await client.post(uploadPath(folder, '/request-code'), { uploader_email: 'guess@example.com' });
    const code = mail.lastCodeFor('guess@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 6; i++) {
      await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'guess@example.com', verification_code: wrong });
    }
    const blocked = await client.post(uploadPath(folder, '/verify-code'), { uploader_email: 'guess@example.com', verification_code: code });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many invalid verification codes\./);
    expect(blocked.body.code).toBe('RATE_LIMITED');
  });
});

describe('gates on the tus endpoint', () => {
  it('refuses to create an upload before the gates are passed, and without the CSRF header', async () => {
    const folder = await createUploadFolder(server, { linkPassword: 'open sesame' });
    const client = freshClient();
    await client.primeCsrf();
    const refused = await tusCreate(client, folder, 100, { filename: 'a', plainSize: 1 });
    expect(refused.status).toBe(401);
    await client.post(uploadPath(folder, '/verify-password'), { link_password: 'open sesame' });
    const noCsrf = await client.request('POST', uploadPath(folder, '/tus'), {
      csrf: false,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '100' },
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ detail: 'CSRF validation failed', code: 'CSRF_FAILED' });
  });
});
