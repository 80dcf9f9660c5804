// Failed logins, codes and passwords are limited per account and per IP with counters in the
// database; 429 carries a detail and retry-after. Small limits are configured for the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import { totpAt } from './totp-reference.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: { RATE_LIMIT_ACCOUNT_FAILURES: '3', RATE_LIMIT_IP_FAILURES: '6', RATE_LIMIT_WINDOW_MINUTES: '15' },
  });
});
afterAll(() => server.close());

const PASSWORD = 'correct horse';

// Each test starts in a fresh window, so counts from other tests (same IP) do not carry over.
function nextWindow(): void {
  server.clock.advance(16 * 60_000);
}

describe('login rate limits', () => {
  it('blocks an account after too many failures, even with the right password, until the window ends', async () => {
    nextWindow();
    await server.createUser('locked', PASSWORD);
    const client = server.client();
    for (let i = 0; i < 3; i++) expect((await client.login('locked', 'wrong horse')).status).toBe(401);

    const blocked = await client.login('locked', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: 'Too many failed login attempts. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    expect(Number(blocked.headers.get('retry-after'))).toBe(15 * 60);

    server.clock.advance(10 * 60_000);
    const later = await client.login('locked', PASSWORD);
    expect(later.status).toBe(429);
    expect(later.body.detail).toBe('Too many failed login attempts. Try again in 5 minutes.');
    expect(later.body.code).toBe('RATE_LIMITED');

    server.clock.advance(5 * 60_000 + 1000);
    expect((await client.login('locked', PASSWORD)).status).toBe(200);
  });

  it('does not count successful logins, and a success clears the account count', async () => {
    nextWindow();
    await server.createUser('busy', PASSWORD);
    const client = server.client();
    for (let i = 0; i < 5; i++) expect((await client.login('busy', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await client.login('busy', 'wrong horse')).status).toBe(401);
    expect((await client.login('busy', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await client.login('busy', 'wrong horse')).status).toBe(401);
    expect((await client.login('busy', PASSWORD)).status).toBe(200);
  });

  it('blocks an IP that fails across many accounts', async () => {
    nextWindow();
    await server.createUser('victim', PASSWORD);
    const client = server.client();
    for (let i = 0; i < 6; i++) expect((await client.login(`guess${i}`, 'wrong horse')).status).toBe(401);
    const blocked = await client.login('victim', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^[1-9]\d*$/); // whole seconds to wait
  });
});

describe('code and password rate limits', () => {
  it('blocks the 2FA code step after too many wrong codes', async () => {
    nextWindow();
    await server.createUser('coder', PASSWORD);
    const setupClient = server.client();
    await setupClient.login('coder', PASSWORD);
    const secret = (await setupClient.post('/api/auth/2fa/setup')).body.secret as string;
    expect((await setupClient.post('/api/auth/2fa/enable', { code: totpAt(secret, server.clock.now()) })).status).toBe(200);
    server.clock.advance(90_000);

    const client = server.client();
    await client.login('coder', PASSWORD);
    for (let i = 0; i < 3; i++) {
      const wrong = await client.post('/api/auth/token/2fa', { username: 'coder', code: totpAt(secret, server.clock.now(), 4 + i) });
      expect(wrong.status).toBe(401);
    }
    const blocked = await client.post('/api/auth/token/2fa', { username: 'coder', code: totpAt(secret, server.clock.now()) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Too many invalid authentication codes. Try again in 15 minutes.');
    expect(blocked.body.code).toBe('RATE_LIMITED');
  });

  it('blocks verify-password after too many wrong passwords', async () => {
    nextWindow();
    await server.createUser('verifier', PASSWORD);
    const client = server.client();
    await client.login('verifier', PASSWORD);
    const wrong = await client.authSecret('verifier', 'wrong horse');
    for (let i = 0; i < 3; i++) {
      expect((await client.post('/api/auth/verify-password', { auth_secret: wrong })).status).toBe(401);
    }
    const blocked = await client.post('/api/auth/verify-password', { auth_secret: await client.authSecret('verifier', PASSWORD) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Too many failed password attempts. Try again in 15 minutes.');
    expect(blocked.body.code).toBe('RATE_LIMITED');
  });
});
