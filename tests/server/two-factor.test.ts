// Two-factor authentication: setup, enable, disable, and the code step of the login, checked
// with an independent RFC 6238 implementation and a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './http-client.ts';
import { startServer, type TestServer } from './harness.ts';
import { hotp, totpAt } from './totp-reference.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PASSWORD = 'correct horse';
let userCount = 0;

/** A new user with 2FA enabled; returns the secret and a signed-out client. */
async function userWith2fa(): Promise<{ username: string; secret: string }> {
  const username = `tfa${++userCount}`;
  await server.createUser(username, PASSWORD);
  const client = server.client();
  await client.login(username, PASSWORD);
  const setup = await client.post('/api/auth/2fa/setup');
  const secret = setup.body.secret as string;
  const enabled = await client.post('/api/auth/2fa/enable', { code: totpAt(secret, server.clock.now()) });
  expect(enabled.status).toBe(200);
  // Codes are accepted once, and the enable step's code counts: move three steps on so that the
  // previous step of "now" is not the one used to enable.
  server.clock.advance(90_000);
  return { username, secret };
}

async function passwordStep(client: TestClient, username: string) {
  const response = await client.login(username, PASSWORD);
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ message: 'OTP code required', username });
  return response;
}

describe('reference TOTP', () => {
  it('matches the RFC 6238 test vector (SHA-1, T=59 s)', () => {
    expect(hotp(Buffer.from('12345678901234567890'), 1, 8)).toBe('94287082');
  });
});

describe('2FA setup, enable, disable', () => {
  it('sets up a pending secret, enables it with a correct code, then disables with the password', async () => {
    await server.createUser('setup1', PASSWORD);
    const client = server.client();
    await client.login('setup1', PASSWORD);

    const setup = await client.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.otp_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Sealdrop');
    expect(decodeURIComponent(uri.pathname)).toContain('setup1');
    expect((await client.get('/api/auth/users/me')).body.is_2fa_enabled).toBe(false);

    const wrong = await client.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now(), 3) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid authentication code', code: 'INVALID_TOTP_CODE' });

    const enabled = await client.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now()) });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ username: 'setup1', is_2fa_enabled: true });

    const again = await client.post('/api/auth/2fa/setup');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: 'Two-factor authentication is already enabled', code: 'TWO_FACTOR_ALREADY_ENABLED' });

    const badPassword = await client.post('/api/auth/2fa/disable', { auth_secret: await client.authSecret('setup1', 'wrong horse') });
    expect(badPassword.status).toBe(401);
    expect(badPassword.body).toEqual({ detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' });

    expect((await client.post('/api/auth/2fa/disable', { password: PASSWORD })).status).toBe(422);
    const disabled = await client.post('/api/auth/2fa/disable', { auth_secret: await client.authSecret('setup1', PASSWORD) });
    expect(disabled.status).toBe(200);
    expect(disabled.body.is_2fa_enabled).toBe(false);
    // Signing in needs only the password again.
    expect((await server.client().login('setup1', PASSWORD)).body.user.username).toBe('setup1');
  });

  it('refuses enable before setup (400) and codes that are not 6 digits (422)', async () => {
    await server.createUser('setup2', PASSWORD);
    const client = server.client();
    await client.login('setup2', PASSWORD);
    const early = await client.post('/api/auth/2fa/enable', { code: '123456' });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ detail: 'Two-factor setup has not been started', code: 'TWO_FACTOR_NOT_STARTED' });

    await client.post('/api/auth/2fa/setup');
    for (const code of ['12345', '1234567', 'abcdef', 123456]) {
      const response = await client.post('/api/auth/2fa/enable', { code });
      expect(response.status).toBe(422);
      expect(response.body.detail[0].loc).toEqual(['body', 'code']);
    }
  });

  it('a new setup replaces the pending secret', async () => {
    await server.createUser('setup3', PASSWORD);
    const client = server.client();
    await client.login('setup3', PASSWORD);
    const first = (await client.post('/api/auth/2fa/setup')).body.secret;
    const second = (await client.post('/api/auth/2fa/setup')).body.secret;
    expect(second).not.toBe(first);
    const stale = await client.post('/api/auth/2fa/enable', { code: totpAt(first, server.clock.now()) });
    expect(stale.status).toBe(401);
  });

  it('needs a session (401)', async () => {
    const client = server.client();
    await client.primeCsrf();
    expect((await client.post('/api/auth/2fa/setup')).body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
  });
});

describe('login with 2FA', () => {
  it('asks for the code after the password, without a session, then signs in with it', async () => {
    const { username, secret } = await userWith2fa();
    const client = server.client();
    const step1 = await passwordStep(client, username);
    expect(step1.setCookies.some((line) => line.startsWith('sealdrop_session='))).toBe(false);
    expect((await client.get('/api/auth/users/me')).status).toBe(401);

    const step2 = await client.post('/api/auth/token/2fa', { username, code: totpAt(secret, server.clock.now()) });
    expect(step2.status).toBe(200);
    expect(step2.body.user).toMatchObject({ username, is_2fa_enabled: true });
    expect((await client.get('/api/auth/users/me')).body.username).toBe(username);
  });

  it('refuses a wrong code and a wrong-password step still gives the password error', async () => {
    const { username, secret } = await userWith2fa();
    const client = server.client();
    const wrongPassword = await client.login(username, 'wrong horse');
    expect(wrongPassword.body).toEqual({ detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' });
    await passwordStep(client, username);
    const wrong = await client.post('/api/auth/token/2fa', { username, code: totpAt(secret, server.clock.now(), 5) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid authentication code', code: 'INVALID_TOTP_CODE' });
    expect(client.sessionToken).toBeUndefined();
  });

  it('accepts each code only once (a replay is refused)', async () => {
    const { username, secret } = await userWith2fa();
    const code = totpAt(secret, server.clock.now());
    const first = server.client();
    await passwordStep(first, username);
    expect((await first.post('/api/auth/token/2fa', { username, code })).status).toBe(200);

    const second = server.client();
    await passwordStep(second, username);
    const replay = await second.post('/api/auth/token/2fa', { username, code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ detail: 'Invalid authentication code', code: 'INVALID_TOTP_CODE' });
  });

  it('accepts the previous and next step, not two steps away', async () => {
    const { username, secret } = await userWith2fa();
    const client = server.client();
    await passwordStep(client, username);
    const now = server.clock.now();
    expect((await client.post('/api/auth/token/2fa', { username, code: totpAt(secret, now, -2) })).status).toBe(401);
    expect((await client.post('/api/auth/token/2fa', { username, code: totpAt(secret, now, 2) })).status).toBe(401);
    expect((await client.post('/api/auth/token/2fa', { username, code: totpAt(secret, now, -1) })).status).toBe(200);

    const other = server.client();
    await passwordStep(other, username);
    expect((await other.post('/api/auth/token/2fa', { username, code: totpAt(secret, now, 1) })).status).toBe(200);
  });

  it('refuses the code step without a password step, from another browser, or after 5 minutes', async () => {
    const { username, secret } = await userWith2fa();
    const fresh = server.client();
    await fresh.primeCsrf();
    const noPasswordStep = await fresh.post('/api/auth/token/2fa', { username, code: totpAt(secret, server.clock.now()) });
    expect(noPasswordStep.status).toBe(401);
    expect(noPasswordStep.body).toEqual({ detail: 'Invalid authentication code', code: 'INVALID_TOTP_CODE' });

    const victim = server.client();
    await passwordStep(victim, username);
    const attacker = server.client();
    await attacker.primeCsrf();
    expect((await attacker.post('/api/auth/token/2fa', { username, code: totpAt(secret, server.clock.now()) })).status).toBe(401);

    server.clock.advance(5 * 60_000 + 1000);
    const late = await victim.post('/api/auth/token/2fa', { username, code: totpAt(secret, server.clock.now()) });
    expect(late.status).toBe(401);
  });

  it('answers 422 for a malformed code and a missing username', async () => {
    const client = server.client();
    await client.primeCsrf();
    const short = await client.post('/api/auth/token/2fa', { username: 'x', code: '12' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ detail: [{ loc: ['body', 'code'], msg: 'Code must be exactly 6 digits' }], code: 'VALIDATION_FAILED' });
    const missing = await client.post('/api/auth/token/2fa', { code: '123456' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toEqual({ loc: ['body', 'username'], msg: 'Field required' });
  });

  it('a user without 2FA cannot use the code step', async () => {
    await server.createUser('plain', PASSWORD);
    const client = server.client();
    await client.login('plain', PASSWORD);
    const response = await client.post('/api/auth/token/2fa', { username: 'plain', code: '123456' });
    expect(response.status).toBe(401);
  });
});
