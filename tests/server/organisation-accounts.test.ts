// Organisation accounts over real HTTP (docs/api.md, "Organisation"): an organisation admin
// invites by e-mail through a real SMTP server; the invitee accepts with a login secret derived
// as the browser derives it (the password never sent); single use, expiry, resend and revoke
// answer typed errors; one token accepted in parallel makes exactly one account; members cannot
// call admin routes; a disabled account's session is refused at once and its sign-in refused.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAccountSecrets, newBoundArgon2Block } from '../../server/crypto/index.ts';
import { INVITATION_TTL_MS } from '../../server/accounts/invitations.ts';
import { startServer, TEST_KDF_COST, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { totpAt } from './totp-reference.ts';
import { generateKeyPairSync } from 'node:crypto';
import { createFolderOf, MailCatcher, MultipartBody, postMultipart, uploadPath } from './upload-helpers.ts';
import { observeDatabase } from './table-rows.ts';

const inbox = new MailCatcher();
let server: TestServer;
let admin: TestClient;
let adminId: number;

/** The invitation token of the newest mail to `to` (quoted-printable soft breaks undone). */
function tokenMailedTo(to: string): string {
  const message = [...inbox.messages].reverse().find((text) => text.toLowerCase().includes(`to: ${to.toLowerCase()}`));
  if (!message) throw new Error(`no mail to ${to}`);
  const unwrapped = message.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /\/invite\/([A-Za-z0-9_-]{43})/.exec(unwrapped);
  if (!match) throw new Error('no invitation link in the mail');
  return match[1]!;
}

async function waitForMailTo(to: string, count: number): Promise<void> {
  await expect.poll(() => inbox.messages.filter((text) => text.toLowerCase().includes(`to: ${to.toLowerCase()}`)).length).toBeGreaterThanOrEqual(count);
}

/** The accept body the browser sends: a fresh block bound to the chosen name, the secret under it. */
function acceptBody(token: string, username: string, password = 'invitee password') {
  const kdfParams = newBoundArgon2Block(username);
  return { token, username, kdf_params: kdfParams, auth_secret: deriveAccountSecrets(password, kdfParams).authSecret };
}

async function invite(email: string, extra: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const before = inbox.messages.length;
  const answer = await admin.post('/api/org/invitations', { email, ...extra });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await expect.poll(() => inbox.messages.length).toBeGreaterThan(before);
  return { id: answer.body.id, token: tokenMailedTo(email) };
}

/** A member account made through an invitation, signed in on its own client. */
async function member(username: string, password = 'member password'): Promise<{ client: TestClient; id: number }> {
  const { token } = await invite(`${username}@example.com`);
  const client = server.client();
  await client.primeCsrf();
  const accepted = await client.post('/api/invitations/accept', acceptBody(token, username, password));
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { client, id: accepted.body.user.id };
}

beforeAll(async () => {
  const smtpUrl = await inbox.start();
  server = await startServer({ env: { SMTP_URL: smtpUrl }, ownPublicUrl: true });
  const first = await server.createUser('boss', 'boss password', 'boss@example.com');
  adminId = first.id;
  await signInAdmin();
});

async function signInAdmin(): Promise<void> {
  admin = server.client();
  expect((await admin.login('boss', 'boss password')).status).toBe(200);
}

afterAll(async () => {
  await server?.close();
  await inbox.stop();
});

describe('roles', () => {
  it('makes the first account an organisation admin and later CLI accounts members', async () => {
    expect((await admin.get('/api/auth/users/me')).body.org_role).toBe('admin');
    const later = await server.createUser('later-cli', 'later password');
    expect(later.orgRole).toBe('member');
  });
});

describe('invitations', () => {
  it('mails a single-use link whose token the server keeps only as a hash, and makes the account from a browser-derived secret', async () => {
    const { id, token } = await invite('carol@example.com', { display_name: 'Carol C.', org_role: 'member' });
    const mail = inbox.messages.at(-1)!;
    expect(mail).toMatch(/Subject: You are invited to Sealdrop/);
    expect(mail.replace(/=\r?\n/g, '')).toContain(`${server.baseUrl}/invite/${token}`);
    const database = await observeDatabase(server);
    try {
      const row = await database.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(token);
    } finally {
      await database.close();
    }

    const invitee = server.client();
    await invitee.primeCsrf();
    const opened = await invitee.post('/api/invitations/open', { token });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ email: 'carol@example.com', display_name: 'Carol C.', org_role: 'member' });

    const password = 'carol chose this';
    const accepted = await invitee.post('/api/invitations/accept', acceptBody(token, 'carol', password));
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ username: 'carol', email: 'carol@example.com', org_role: 'member', is_2fa_enabled: false, public_key_spki: null });
    // Signed in at once (for two-factor setup and the key pair), and signs in again with the password.
    expect((await invitee.get('/api/auth/users/me')).status).toBe(200);
    expect((await server.client().login('carol', password)).status).toBe(200);

    const listed = (await admin.get('/api/org/invitations')).body.invitations.find((entry: { id: number }) => entry.id === id);
    expect(listed).toMatchObject({ status: 'accepted', invited_by: 'boss', email: 'carol@example.com' });
    const account = (await admin.get('/api/org/accounts')).body.accounts.find((entry: { username: string }) => entry.username === 'carol');
    expect(account).toMatchObject({ display_name: 'Carol C.', org_role: 'member', status: 'active', folder_count: 0 });
    expect(account.invited_at).not.toBeNull();
  });

  it('refuses a used token, with the same code when it is opened or accepted again', async () => {
    const { token } = await invite('dave@example.com');
    const first = server.client();
    await first.primeCsrf();
    expect((await first.post('/api/invitations/accept', acceptBody(token, 'dave'))).status).toBe(200);
    const again = server.client();
    await again.primeCsrf();
    const opened = await again.post('/api/invitations/open', { token });
    expect(opened.status).toBe(410);
    expect(opened.body.code).toBe('INVITATION_USED');
    const reused = await again.post('/api/invitations/accept', acceptBody(token, 'dave-two'));
    expect(reused.status).toBe(410);
    expect(reused.body.code).toBe('INVITATION_USED');
    expect(await server.app.repos.users.findByUsername('dave-two')).toBeUndefined();
  });

  it('accepts one token once when many requests present it at the same moment', async () => {
    const { token } = await invite('erin@example.com');
    const bodies = Array.from({ length: 6 }, (_, index) => acceptBody(token, `erin-${index}`));
    const clients = await Promise.all(
      bodies.map(async () => {
        const client = server.client();
        await client.primeCsrf();
        return client;
      }),
    );
    const before = await server.app.repos.users.count();
    const answers = await Promise.all(clients.map((client, index) => client.post('/api/invitations/accept', bodies[index])));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer.status).toBe(410);
      expect(answer.body.code).toBe('INVITATION_USED');
    }
    expect(await server.app.repos.users.count()).toBe(before + 1);
  });

  it('expires after seven days; resending mails a new link and the old one stops working', async () => {
    const { id, token } = await invite('frank@example.com');
    server.clock.advance(INVITATION_TTL_MS + 1000);
    // Seven days outlast the admin's session too.
    await signInAdmin();
    const client = server.client();
    await client.primeCsrf();
    const late = await client.post('/api/invitations/accept', acceptBody(token, 'frank'));
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('INVITATION_EXPIRED');
    expect((await admin.get('/api/org/invitations')).body.invitations.find((entry: { id: number }) => entry.id === id).status).toBe('expired');

    const resent = await admin.post(`/api/org/invitations/${id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('pending');
    await waitForMailTo('frank@example.com', 2);
    const fresh = tokenMailedTo('frank@example.com');
    expect(fresh).not.toBe(token);
    const old = await client.post('/api/invitations/open', { token });
    expect(old.status).toBe(404);
    expect(old.body.code).toBe('INVITATION_NOT_FOUND');
    expect((await client.post('/api/invitations/accept', acceptBody(fresh, 'frank'))).status).toBe(200);
    const after = await admin.post(`/api/org/invitations/${id}/resend`);
    expect(after.status).toBe(410);
    expect(after.body.code).toBe('INVITATION_USED');
  });

  it('revokes: the link answers INVITATION_REVOKED and the invitation cannot be resent', async () => {
    const { id, token } = await invite('gina@example.com');
    const revoked = await admin.post(`/api/org/invitations/${id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const client = server.client();
    await client.primeCsrf();
    const refused = await client.post('/api/invitations/accept', acceptBody(token, 'gina'));
    expect(refused.status).toBe(410);
    expect(refused.body.code).toBe('INVITATION_REVOKED');
    expect((await admin.post(`/api/org/invitations/${id}/revoke`)).body.code).toBe('INVITATION_REVOKED');
    expect((await admin.post(`/api/org/invitations/${id}/resend`)).body.code).toBe('INVITATION_REVOKED');
    expect((await admin.post('/api/org/invitations/999999/revoke')).body.code).toBe('INVITATION_NOT_FOUND');
  });

  it('refuses a second open invitation to the same address in any letter case', async () => {
    await invite('hank@example.com');
    const twice = await admin.post('/api/org/invitations', { email: 'HANK@example.com' });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('INVITATION_PENDING');
  });

  it('refuses parameter blocks that are cheap or bound to another name, and a taken name, leaving the invitation open', async () => {
    const { token } = await invite('ivan@example.com');
    const client = server.client();
    await client.primeCsrf();
    const otherName = acceptBody(token, 'ivan');
    otherName.kdf_params = newBoundArgon2Block('somebody-else');
    const wrongName = await client.post('/api/invitations/accept', otherName);
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.code).toBe('KDF_PARAMS_NOT_BOUND');
    const cheapBlock = newBoundArgon2Block('ivan', undefined, TEST_KDF_COST);
    const cheap = await client.post('/api/invitations/accept', { ...acceptBody(token, 'ivan'), kdf_params: cheapBlock });
    expect(cheap.status).toBe(422);
    const taken = await client.post('/api/invitations/accept', acceptBody(token, 'BOSS'));
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('USERNAME_TAKEN');
    expect((await client.post('/api/invitations/accept', acceptBody(token, 'ivan'))).status).toBe(200);
  });

  it('answers malformed and unknown tokens with typed refusals', async () => {
    const client = server.client();
    await client.primeCsrf();
    expect((await client.post('/api/invitations/open', { token: 'short' })).status).toBe(422);
    expect((await client.post('/api/invitations/open', { token: 'A'.repeat(43) })).body.code).toBe('INVITATION_NOT_FOUND');
    expect((await client.post('/api/invitations/open', {})).status).toBe(422);
    expect((await client.post('/api/invitations/accept', { ...acceptBody('A'.repeat(43), 'nobody'), username: 'bad name!' })).status).toBe(422);
  });

  it('makes an organisation admin when the invitation says so', async () => {
    const { token } = await invite('judy@example.com', { org_role: 'admin' });
    const client = server.client();
    await client.primeCsrf();
    const accepted = await client.post('/api/invitations/accept', acceptBody(token, 'judy'));
    expect(accepted.body.user.org_role).toBe('admin');
    expect((await client.get('/api/org/accounts')).status).toBe(200);
  });
});

/** POST `path` through the admin's session with the Host header written by hand (fetch always sends the URL's own). */
function postWithHost(path: string, host: string, json: unknown): Promise<{ status: number; body: any }> {
  const target = new URL(admin.baseUrl + path);
  const body = Buffer.from(JSON.stringify(json));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          'content-length': String(body.length),
          cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          'x-csrftoken': admin.csrfToken ?? '',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the invitation link', () => {
  it('is built from PUBLIC_URL: an invitation asked for through another Host is refused and nothing is mailed', async () => {
    const before = inbox.messages.length;
    const forged = await postWithHost('/api/org/invitations', 'evil.example', { email: 'forged-host@example.com' });
    expect(forged.status).toBe(421);
    expect(forged.body.code).toBe('HOST_NOT_ALLOWED');
    await server.settled();
    expect(inbox.messages.length).toBe(before);
    expect((await admin.get('/api/org/invitations')).body.invitations.map((entry: { email: string }) => entry.email)).not.toContain('forged-host@example.com');
  });
});

describe('admin routes', () => {
  it('refuse members and anonymous callers', async () => {
    const { client: plain } = await member('kim');
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/org/accounts'],
      ['GET', '/api/org/invitations'],
      ['POST', '/api/org/invitations', { email: 'x@example.com' }],
      ['POST', '/api/org/invitations/1/resend'],
      ['POST', '/api/org/invitations/1/revoke'],
      ['POST', `/api/org/accounts/${adminId}/disable`],
      ['POST', `/api/org/accounts/${adminId}/enable`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await plain.request(method, path, body === undefined ? {} : { json: body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('ORG_ADMIN_REQUIRED');
      const anonymous = server.client();
      await anonymous.primeCsrf();
      expect((await anonymous.request(method, path, body === undefined ? {} : { json: body })).status).toBe(401);
    }
    expect((await admin.get(`/api/org/accounts`)).body.accounts.find((entry: { id: number }) => entry.id === adminId).status).toBe('active');
  });

  it('let any signed-in account read the directory of active accounts and their public keys', async () => {
    const { client } = await member('lena');
    const directory = await client.get('/api/org/directory');
    expect(directory.status).toBe(200);
    const names = directory.body.accounts.map((entry: { username: string }) => entry.username);
    expect(names).toContain('boss');
    expect(names).toContain('lena');
    expect(Object.keys(directory.body.accounts[0]).sort()).toEqual(['display_name', 'id', 'public_key_spki', 'username']);
  });
});

describe('disabling', () => {
  it('ends the sessions at once, refuses sign-in with ACCOUNT_DISABLED (only to the right password), and enables again', async () => {
    const { client, id } = await member('mike', 'mike password');
    const secondBrowser = server.client();
    expect((await secondBrowser.login('mike', 'mike password')).status).toBe(200);

    const disabled = await admin.post(`/api/org/accounts/${id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', username: 'mike' });
    for (const browser of [client, secondBrowser]) {
      const me = await browser.get('/api/auth/users/me');
      expect(me.status).toBe(401);
      expect(me.body.code).toBe('SESSION_EXPIRED');
    }
    const signIn = await server.client().login('mike', 'mike password');
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('ACCOUNT_DISABLED');
    const wrong = await server.client().login('mike', 'not the password');
    expect(wrong.body.code).toBe('INCORRECT_CREDENTIALS');
    const directory = (await admin.get('/api/org/directory')).body.accounts.map((entry: { username: string }) => entry.username);
    expect(directory).not.toContain('mike');

    const enabled = await admin.post(`/api/org/accounts/${id}/enable`);
    expect(enabled.body.status).toBe('active');
    expect((await server.client().login('mike', 'mike password')).status).toBe(200);
  });

  it('keeps a disabled account\'s upload link working, and shows the folders it owns', async () => {
    const { id } = await member('owen', 'owen password');
    const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    await server.app.repos.users.setPublicKey(id, spki);
    const folder = await createFolderOf(server, id, { title: 'Client uploads', performMimeCheck: false });
    const disabled = await admin.post(`/api/org/accounts/${id}/disable`);
    expect(disabled.body).toMatchObject({ status: 'disabled', folder_count: 1 });

    const uploader = server.client();
    const body = new MultipartBody().files([{ name: 'tax-return.pdf', data: Buffer.alloc(server.app.uploads.sizes.encryptedLength(1000), 1) }]);
    const uploaded = await postMultipart(uploader, uploadPath(folder), body);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(await server.app.repos.files.listForFolder(folder.id)).toHaveLength(1);
    expect((await admin.post(`/api/org/accounts/${id}/enable`)).status).toBe(200);
  });

  it('refuses a disabled 2FA account at the code step too', async () => {
    const { client, id } = await member('nora', 'nora password');
    const setup = await client.post('/api/auth/2fa/setup');
    expect((await client.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now()) })).status).toBe(200);
    const browser = server.client();
    expect((await browser.login('nora', 'nora password')).body.message).toBe('OTP code required');
    expect((await admin.post(`/api/org/accounts/${id}/disable`)).status).toBe(200);
    server.clock.advance(30_000);
    const code = await browser.post('/api/auth/token/2fa', { username: 'nora', code: totpAt(setup.body.secret, server.clock.now()) });
    expect(code.status).not.toBe(200);
    expect(await browser.get('/api/auth/users/me').then((answer) => answer.status)).toBe(401);
  });

  it('refuses disabling oneself, unknown accounts, and the last active organisation admin', async () => {
    const self = await admin.post(`/api/org/accounts/${adminId}/disable`);
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('CANNOT_DISABLE_SELF');
    expect((await admin.post('/api/org/accounts/999999/disable')).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await admin.post('/api/org/accounts/abc/disable')).status).toBe(422);
    // Only reachable by a race (an admin cannot disable themselves): the repository refuses it.
    const admins = (await admin.get('/api/org/accounts')).body.accounts.filter((entry: { org_role: string; status: string }) => entry.org_role === 'admin' && entry.status === 'active');
    for (const other of admins.filter((entry: { id: number }) => entry.id !== adminId)) {
      expect((await admin.post(`/api/org/accounts/${other.id}/disable`)).status).toBe(200);
    }
    expect(await server.app.repos.users.disable(adminId, server.clock.now())).toBe('last-admin');
    expect((await admin.get('/api/auth/users/me')).status).toBe(200);
    for (const other of admins.filter((entry: { id: number }) => entry.id !== adminId)) {
      expect((await admin.post(`/api/org/accounts/${other.id}/enable`)).status).toBe(200);
    }
  });

  it('leaves an active admin when two admins disable each other at the same moment', async () => {
    const { token } = await invite('olga@example.com', { org_role: 'admin' });
    const olga = server.client();
    await olga.primeCsrf();
    const olgaId = (await olga.post('/api/invitations/accept', acceptBody(token, 'olga'))).body.user.id as number;
    // Every other admin disabled, so boss and olga are the only two.
    const others = (await admin.get('/api/org/accounts')).body.accounts.filter(
      (entry: { id: number; org_role: string; status: string }) => entry.org_role === 'admin' && entry.status === 'active' && entry.id !== adminId && entry.id !== olgaId,
    );
    for (const other of others) expect((await admin.post(`/api/org/accounts/${other.id}/disable`)).status).toBe(200);

    const [first, second] = await Promise.all([admin.post(`/api/org/accounts/${olgaId}/disable`), olga.post(`/api/org/accounts/${adminId}/disable`)]);
    expect([first.status, second.status].filter((status) => status === 200)).toHaveLength(1);
    const active = (await server.app.repos.users.listActive()).filter((user) => user.orgRole === 'admin');
    expect(active.length).toBeGreaterThanOrEqual(1);

    // Put things back for any test after this one.
    const survivor = first.status === 200 ? admin : olga;
    const disabledId = first.status === 200 ? olgaId : adminId;
    expect((await survivor.post(`/api/org/accounts/${disabledId}/enable`)).status).toBe(200);
    for (const other of others) expect((await survivor.post(`/api/org/accounts/${other.id}/enable`)).status).toBe(200);
  });
});

describe('an SMTP server that refuses the invitation', () => {
  it('answers INVITATION_MAIL_FAILED on invite and on resend, and keeps the invitation listed to resend later', async () => {
    const refusing = new MailCatcher();
    const smtpUrl = await refusing.start();
    await refusing.stop();
    // Nothing listens there now: every send is refused at once.
    const broken = await startServer({ env: { SMTP_URL: smtpUrl }, ownPublicUrl: true });
    try {
      await broken.createUser('solo', 'solo password');
      const client = broken.client();
      expect((await client.login('solo', 'solo password')).status).toBe(200);
      const failed = await client.post('/api/org/invitations', { email: 'unlucky@example.com' });
      expect(failed.status).toBe(502);
      expect(failed.body.code).toBe('INVITATION_MAIL_FAILED');
      const listed = (await client.get('/api/org/invitations')).body.invitations;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ email: 'unlucky@example.com', status: 'pending' });
      const again = await client.post(`/api/org/invitations/${listed[0].id}/resend`);
      expect(again.status).toBe(502);
      expect(again.body.code).toBe('INVITATION_MAIL_FAILED');
    } finally {
      await broken.close();
    }
  });
});
