// CSRF protection: the csrftoken cookie must be echoed in x-csrftoken on every mutating request,
// and for a signed-in request it must be the token bound to the session at login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.createUser('bob', 'correct horse');
});
afterAll(() => server.close());

const CSRF_FAILED = { detail: 'CSRF validation failed', code: 'CSRF_FAILED' };

describe('CSRF', () => {
  it('sets a csrftoken cookie on an /api response when the request carried none, and keeps it after', async () => {
    const client = server.client();
    const first = await client.get('/api/auth/users/me');
    expect(first.setCookies.some((line) => line.startsWith('csrftoken='))).toBe(true);
    const second = await client.get('/api/auth/users/me');
    expect(second.setCookies.some((line) => line.startsWith('csrftoken='))).toBe(false);
    const unknownRoute = await server.client().get('/api/does-not-exist');
    expect(unknownRoute.setCookies.some((line) => line.startsWith('csrftoken='))).toBe(true);
  });

  it('refuses a mutating request without the header (403)', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.request('POST', '/api/auth/token', {
      form: { username: 'bob', auth_secret: Buffer.alloc(32).toString('base64') },
      csrf: false,
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(CSRF_FAILED);
    expect(client.sessionToken).toBeUndefined();
  });

  it('refuses a header that does not match the cookie (403)', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.request('POST', '/api/auth/token', {
      form: { username: 'bob', auth_secret: Buffer.alloc(32).toString('base64') },
      csrf: 'x'.repeat(43),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(CSRF_FAILED);
  });

  it('refuses a header when the request carried no cookie at all (403)', async () => {
    const client = server.client();
    const response = await client.request('POST', '/api/auth/logout', { csrf: 'y'.repeat(43) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(CSRF_FAILED);
  });

  it('checks PUT as well as POST; GET needs no header', async () => {
    const { client } = await signedInClient(server, 'carol');
    expect((await client.get('/api/auth/users/me', { csrf: false })).status).toBe(200);
    const put = await client.put('/api/auth/users/me', { current_auth_secret: await client.authSecret('carol', 'correct horse'), email: null }, { csrf: false });
    expect(put.status).toBe(403);
    expect(put.body).toEqual(CSRF_FAILED);
  });

  it('refuses, after login, the token the browser held before login', async () => {
    const client = server.client();
    await client.primeCsrf();
    const beforeLogin = client.csrfToken!;
    expect((await client.login('bob', 'correct horse')).status).toBe(200);
    expect(client.csrfToken).not.toBe(beforeLogin);

    // An attacker who planted the pre-login token (cookie and header) gets nowhere.
    const secret = await client.authSecret('bob', 'correct horse');
    client.cookies.set('csrftoken', beforeLogin);
    const response = await client.post('/api/auth/verify-password', { auth_secret: secret });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(CSRF_FAILED);
  });

  it("refuses another session's token", async () => {
    const first = server.client();
    await first.login('bob', 'correct horse');
    const second = server.client();
    await second.login('bob', 'correct horse');
    const secret = await second.authSecret('bob', 'correct horse');
    first.cookies.set('csrftoken', second.csrfToken!);
    const response = await first.post('/api/auth/verify-password', { auth_secret: secret });
    expect(response.status).toBe(403);
    // With its own token the same request passes.
    const own = await second.post('/api/auth/verify-password', { auth_secret: secret });
    expect(own.status).toBe(200);
  });

  it('restores the session-bound token when a signed-in browser lost its csrftoken cookie', async () => {
    const client = server.client();
    await client.login('bob', 'correct horse');
    const bound = client.csrfToken!;
    client.cookies.delete('csrftoken');
    await client.get('/api/auth/users/me');
    expect(client.csrfToken).toBe(bound);
    expect((await client.post('/api/auth/verify-password', { auth_secret: await client.authSecret('bob', 'correct horse') })).status).toBe(200);
  });

  it('issues a fresh token at logout', async () => {
    const client = server.client();
    await client.login('bob', 'correct horse');
    const bound = client.csrfToken;
    await client.post('/api/auth/logout');
    expect(client.csrfToken).toMatch(/^[\w-]{20,}$/);
    expect(client.csrfToken).not.toBe(bound);
  });
});
