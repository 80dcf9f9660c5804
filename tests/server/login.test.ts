// POST /api/auth/token, GET /api/auth/users/me, POST /api/auth/logout: the secret step (the
// authentication secret derived from the password, never the password), the session cookie,
// expiry and logout, over real HTTP against the real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import { sha256Hex } from '../../server/auth/tokens.ts';
import { deriveAccountSecrets, newArgon2Block } from '../../server/crypto/index.ts';
import { cookieAttributes } from './http-client.ts';
import { startServer, usingPostgres, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.createUser('Alice', 'correct horse', 'alice@example.com');
});
afterAll(() => server.close());

describe('POST /api/auth/token', () => {
  it('signs in with form fields and returns the user with session and csrf cookies', async () => {
    const client = server.client();
    await client.primeCsrf();
    const before = client.csrfToken;
    const authSecret = await client.authSecret('Alice', 'correct horse');
    const response = await client.request('POST', '/api/auth/token', {
      form: { username: 'Alice', auth_secret: authSecret },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: { id: expect.any(Number), username: 'Alice', email: 'alice@example.com', is_2fa_enabled: false, public_key_spki: null, org_role: 'admin', language: null, has_password: true },
    });
    const session = cookieAttributes(response.setCookies, 'sealdrop_session');
    expect(session?.has('httponly')).toBe(true);
    expect(session?.get('samesite')?.toLowerCase()).toBe('lax');
    expect(session?.get('path')).toBe('/');
    // The cookie outlives the 12 h session by a day, so an expired session is reported as such.
    expect(session?.get('max-age')).toBe(String(36 * 3600));
    expect(client.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const csrf = cookieAttributes(response.setCookies, 'csrftoken');
    expect(csrf?.has('httponly')).toBe(false);
    expect(client.csrfToken).not.toBe(before);

    const me = await client.get('/api/auth/users/me');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('Alice');
  });

  it('matches the username case-insensitively', async () => {
    const response = await server.client().login('aLiCe', 'correct horse');
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe('Alice');
  });

  it('also accepts a JSON body', async () => {
    const client = server.client();
    const response = await client.post('/api/auth/token', { username: 'Alice', auth_secret: await client.authSecret('Alice', 'correct horse') });
    expect(response.status).toBe(200);
  });

  it('refuses the password itself: a server with no account of the old scheme takes no password at sign-in', async () => {
    const client = server.client();
    const response = await client.loginWithPassword('Alice', 'correct horse');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'This server no longer accepts passwords at sign-in', code: 'OLD_SCHEME_SIGN_IN_CLOSED' });
    expect(client.sessionToken).toBeUndefined();
  });

  it('refuses a secret derived under other parameters than the account\'s', async () => {
    const client = server.client();
    await client.primeCsrf();
    const other = deriveAccountSecrets('correct horse', newArgon2Block(undefined, { memoryKiB: 19_456, passes: 2, lanes: 1 })).authSecret;
    const response = await client.request('POST', '/api/auth/token', { form: { username: 'Alice', auth_secret: other } });
    expect(response.status).toBe(401);
  });

  it('answers 401 "Incorrect username or password" for a wrong password, without a session', async () => {
    const client = server.client();
    const response = await client.login('Alice', 'wrong horse');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' });
    expect(client.sessionToken).toBeUndefined();
  });

  it('answers the same 401 for an unknown user', async () => {
    const response = await server.client().login('nobody', 'correct horse');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' });
  });

  it('answers 422 with the field list when a field is missing', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.request('POST', '/api/auth/token', { form: { username: 'Alice' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ detail: [{ loc: ['body'], msg: 'Send either auth_secret or password' }], code: 'VALIDATION_FAILED' });

    const empty = await client.request('POST', '/api/auth/token', { form: { username: '', auth_secret: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail.map((issue: { loc: string[] }) => issue.loc)).toEqual([
      ['body', 'username'],
      ['body', 'auth_secret'],
    ]);

    // Not 32 bytes of base64: a client that sends the password in the secret's field is told so.
    const typed = await client.request('POST', '/api/auth/token', { form: { username: 'Alice', auth_secret: 'correct horse' } });
    expect(typed.status).toBe(422);
    expect(typed.body.detail[0].loc).toEqual(['body', 'auth_secret']);
    const both = await client.request('POST', '/api/auth/token', { form: { username: 'Alice', auth_secret: Buffer.alloc(32).toString('base64'), password: 'x' } });
    expect(both.status).toBe(422);

    const none = await client.post('/api/auth/token');
    expect(none.status).toBe(422);
  });

  it('rotates the session at login: the previous session token stops working', async () => {
    const client = server.client();
    await client.login('Alice', 'correct horse');
    const first = client.sessionToken!;
    await client.login('Alice', 'correct horse');
    expect(client.sessionToken).not.toBe(first);

    const stale = server.client();
    stale.cookies.set('sealdrop_session', first);
    const me = await stale.get('/api/auth/users/me');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });
  });
});

describe('what is stored', () => {
  it('uses the configured database (SQLite file in DATA_DIR, or PostgreSQL when DATABASE_URL is set)', () => {
    expect(server.config.database.kind).toBe(usingPostgres ? 'postgres' : 'sqlite');
    if (!usingPostgres) expect(fs.existsSync(path.join(server.config.dataDir, 'sealdrop.db'))).toBe(true);
  });

  it('stores an argon2id hash of the authentication secret (not of the password), and only the SHA-256 of the session token', async () => {
    const user = await server.app.repos.users.findByUsername('alice');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verify(user!.passwordHash, 'correct horse')).toBe(false);
    expect(await verify(user!.passwordHash, await server.client().authSecret('Alice', 'correct horse'))).toBe(true);
    const client = server.client();
    await client.login('Alice', 'correct horse');
    const token = client.sessionToken!;
    expect(await server.app.repos.sessions.findByTokenHash(token)).toBeUndefined();
    expect((await server.app.repos.sessions.findByTokenHash(sha256Hex(token)))?.userId).toBe(user?.id);
  });

  it('looks a name up for sign-in in any letter case, reading only what the check needs; an unknown name reads as none', async () => {
    const user = await server.app.repos.users.findByUsername('alice');
    expect(await server.app.repos.users.signInCandidateOf('ALICE')).toEqual({
      id: user!.id,
      passwordHash: user!.passwordHash,
      kdfParams: user!.kdfParams,
      is2faEnabled: false,
      totpSecret: null,
    });
    expect(await server.app.repos.users.signInCandidateOf('nobody-here')).toBeUndefined();
  });
});

describe('GET /api/auth/users/me', () => {
  it('answers 401 "Not authenticated" without a session cookie, and sets a csrftoken cookie', async () => {
    const client = server.client();
    const response = await client.get('/api/auth/users/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
    expect(client.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers 401 "Session expired" for an unknown session token', async () => {
    const client = server.client();
    client.cookies.set('sealdrop_session', 'A'.repeat(43));
    const response = await client.get('/api/auth/users/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });
  });

  it('answers 401 "Session expired" once the session outlived SESSION_TTL_HOURS', async () => {
    const client = server.client();
    await client.login('Alice', 'correct horse');
    server.clock.advance(server.config.sessionTtlMs - 1000);
    expect((await client.get('/api/auth/users/me')).status).toBe(200);
    server.clock.advance(2000);
    const response = await client.get('/api/auth/users/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });
  });
});

describe('POST /api/auth/logout', () => {
  it('deletes the session and clears the cookie', async () => {
    const client = server.client();
    await client.login('Alice', 'correct horse');
    const token = client.sessionToken!;
    const response = await client.post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ detail: 'Logged out', end_session_url: null });
    expect(client.sessionToken).toBeUndefined();
    expect((await client.get('/api/auth/users/me')).body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });

    // The old token is dead on the server too, not only forgotten by this browser.
    const replay = server.client();
    replay.cookies.set('sealdrop_session', token);
    expect((await replay.get('/api/auth/users/me')).body).toEqual({ detail: 'Session expired', code: 'SESSION_EXPIRED' });
  });

  it('works without a session', async () => {
    const client = server.client();
    await client.primeCsrf();
    const response = await client.post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ detail: 'Logged out', end_session_url: null });
  });
});
