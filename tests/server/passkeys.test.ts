// Passkeys over real HTTP with a software authenticator (soft-authenticator.ts): registration after
// a re-authentication, sign-in with the passkey alone (both factors), the list, and every refusal
// with its own code: a replayed assertion, a challenge used twice, another origin, a counter that
// goes backwards, another account's credential, a challenge of another browser or past its time,
// a removed passkey; the limit of 10 under parallel requests; and the operator's password reset.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { relyingParty } from '../../server/auth/passkeys/relying-party.ts';
import { resetPassword } from '../../server/auth/user-admin.ts';
import type { TestClient } from './http-client.ts';
import { startServer, TEST_KDF_COST, type TestServer } from './harness.ts';
import { SoftCredential } from './soft-authenticator.ts';

let server: TestServer;
let origin: string;

beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'silent' } });
  origin = server.baseUrl.replace('127.0.0.1', 'localhost');
});
afterAll(() => server.close());

const PASSWORD = 'correct horse battery';
let users = 0;

async function signedInUser(): Promise<{ username: string; client: TestClient }> {
  const username = `pk${++users}`;
  await server.createUser(username, PASSWORD);
  const client = server.client('localhost');
  expect((await client.login(username, PASSWORD)).status).toBe(200);
  return { username, client };
}

async function reauth(client: TestClient, username: string) {
  const response = await client.post('/api/auth/reauth', { auth_secret: await client.authSecret(username, PASSWORD) });
  expect(response.status).toBe(200);
  return response;
}

async function register(client: TestClient, name = 'Laptop', extra: Record<string, unknown> = {}) {
  const credential = new SoftCredential('localhost', origin);
  const options = await client.post('/api/auth/passkeys/register/options');
  expect(options.status).toBe(200);
  const added = await client.post('/api/auth/passkeys', { name, response: credential.register(options.body.options), ...extra });
  return { credential, added };
}

async function signInOptions(client: TestClient) {
  await client.primeCsrf();
  const options = await client.post('/api/auth/passkeys/sign-in/options');
  expect(options.status).toBe(200);
  return options.body.options as { challenge: string; allowCredentials: unknown[]; userVerification: string };
}

async function activityCodes(client: TestClient): Promise<unknown[]> {
  const page = await client.get('/api/activity?kind=passkey.failed');
  expect(page.status).toBe(200);
  return page.body.entries.map((entry: { details: Record<string, unknown> }) => entry.details);
}

describe('passkey registration', () => {
  it('needs a fresh re-authentication: none, a wrong password, an expired one are refused', async () => {
    const { username, client } = await signedInUser();
    expect((await client.post('/api/auth/passkeys/register/options')).body.code).toBe('PASSKEY_REAUTH_REQUIRED');
    const wrong = await client.post('/api/auth/reauth', { auth_secret: await client.authSecret(username, 'wrong password!') });
    expect(wrong.body.code).toBe('INCORRECT_PASSWORD');
    await reauth(client, username);
    expect((await client.post('/api/auth/passkeys/register/options')).status).toBe(200);
    server.clock.advance(5 * 60_000 + 1);
    expect((await client.post('/api/auth/passkeys/register/options')).body.code).toBe('PASSKEY_REAUTH_REQUIRED');
  });

  it('asks for a discoverable credential with user verification, and lists the new passkey', async () => {
    const { username, client } = await signedInUser();
    await reauth(client, username);
    const options = await client.post('/api/auth/passkeys/register/options');
    expect(options.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.body.options.rp).toEqual({ id: 'localhost', name: 'Sealdrop' });
    const credential = new SoftCredential('localhost', origin);
    const added = await client.post('/api/auth/passkeys', { name: '  Work laptop ', response: credential.register(options.body.options) });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ name: 'Work laptop', last_used_at: null, unlocks_keys: false });
    const list = await client.get('/api/auth/passkeys');
    expect(list.body.passkeys).toHaveLength(1);
    // The same credential again is refused (excludeCredentials would stop a browser first).
    const again = await client.post('/api/auth/passkeys/register/options');
    expect(again.body.options.excludeCredentials).toEqual([{ id: credential.id, type: 'public-key', transports: ['internal'] }]);
    const duplicate = await client.post('/api/auth/passkeys', { name: 'Again', response: credential.register(again.body.options) });
    expect(duplicate.body.code).toBe('PASSKEY_ALREADY_REGISTERED');
  });

  it('refuses names that are empty, too long or hold control characters', async () => {
    const { username, client } = await signedInUser();
    await reauth(client, username);
    for (const name of ['   ', 'x'.repeat(65), 'a\u0000b', 'line\nbreak', 'a\u2028b', 'evil\u202eexe.txt']) {
      const credential = new SoftCredential('localhost', origin);
      const options = await client.post('/api/auth/passkeys/register/options');
      const added = await client.post('/api/auth/passkeys', { name, response: credential.register(options.body.options) });
      expect(added.status, JSON.stringify(name)).toBe(422);
    }
  });

  it('refuses an attestation made for another origin and one whose challenge was not issued', async () => {
    const { username, client } = await signedInUser();
    await reauth(client, username);
    const options = await client.post('/api/auth/passkeys/register/options');
    const foreign = await client.post('/api/auth/passkeys', {
      name: 'Evil',
      response: new SoftCredential('localhost', origin).register(options.body.options, { origin: 'https://evil.example' }),
    });
    expect(foreign.body.code).toBe('PASSKEY_ORIGIN_MISMATCH');
    const invented = await client.post('/api/auth/passkeys', {
      name: 'Invented',
      response: new SoftCredential('localhost', origin).register(options.body.options, { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
    });
    expect(invented.body.code).toBe('PASSKEY_CHALLENGE_INVALID');
    // Refusals are recorded once the answer has gone out.
    await server.settled();
    expect(await activityCodes(client)).toEqual(
      expect.arrayContaining([
        { step: 'register', code: 'PASSKEY_ORIGIN_MISMATCH' },
        { step: 'register', code: 'PASSKEY_CHALLENGE_INVALID' },
      ]),
    );
  });

  it('keeps a wrapped copy only for the account\'s key pair', async () => {
    const { username, client } = await signedInUser();
    const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect((await client.put('/api/auth/public-key', { public_key_spki: spki })).status).toBe(200);
    await reauth(client, username);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const stale = await register(client, 'Stale', { wrapped_private_key: { encryptedPrivateKey: 'AAAA', public_key_spki: other } });
    expect(stale.added.body.code).toBe('KEY_PAIR_CHANGED');
    const { credential, added } = await register(client, 'Key', { wrapped_private_key: { encryptedPrivateKey: 'c2VhbGVk', public_key_spki: spki } });
    expect(added.body.unlocks_keys).toBe(true);
    const fresh = server.client('localhost');
    const signedIn = await fresh.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(fresh)) });
    expect(signedIn.body.wrapped_private_key).toEqual({ encryptedPrivateKey: 'c2VhbGVk', credential_id: credential.id });
    // A new key pair leaves the copy behind: it no longer unlocks anything.
    expect((await client.put('/api/auth/public-key', { public_key_spki: other })).status).toBe(200);
    expect((await client.get('/api/auth/passkeys')).body.passkeys[0].unlocks_keys).toBe(false);
  });

  it('allows 10 passkeys per account, also to parallel requests', async () => {
    const { username, client } = await signedInUser();
    await reauth(client, username);
    for (let i = 0; i < 8; i++) expect((await register(client, `Key ${i}`)).added.status).toBe(200);
    const pending = await Promise.all(
      [0, 1, 2].map(async () => {
        const options = await client.post('/api/auth/passkeys/register/options');
        return new SoftCredential('localhost', origin).register(options.body.options);
      }),
    );
    const answers = await Promise.all(pending.map((response, i) => client.post('/api/auth/passkeys', { name: `Parallel ${i}`, response })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.code).toBe('PASSKEY_LIMIT_REACHED');
    expect((await client.get('/api/auth/passkeys')).body.passkeys).toHaveLength(10);
    expect((await client.post('/api/auth/passkeys/register/options')).body.code).toBe('PASSKEY_LIMIT_REACHED');
  });
});

describe('passkey sign-in', () => {
  async function userWithPasskey() {
    const { username, client } = await signedInUser();
    await reauth(client, username);
    const { credential, added } = await register(client);
    expect(added.status).toBe(200);
    return { username, client, credential, passkeyId: added.body.id as number };
  }

  it('signs in with the passkey alone, without the authenticator code of a 2FA account', async () => {
    const { client, credential, username } = await userWithPasskey();
    // Turn 2FA on: the passkey still signs in alone.
    const setup = await client.post('/api/auth/2fa/setup');
    const { totpAt } = await import('./totp-reference.ts');
    expect((await client.post('/api/auth/2fa/enable', { code: totpAt(setup.body.secret, server.clock.now()) })).status).toBe(200);

    const browser = server.client('localhost');
    const options = await signInOptions(browser);
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    const signedIn = await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(options) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.username).toBe(username);
    expect(signedIn.body.wrapped_private_key).toBeNull();
    expect((await browser.get('/api/auth/users/me')).status).toBe(200);
    const listed = (await client.get('/api/auth/passkeys')).body.passkeys[0];
    expect(listed.last_used_at).not.toBeNull();
  });

  it('refuses a replayed assertion', async () => {
    const { client, credential } = await userWithPasskey();
    const browser = server.client('localhost');
    const assertion = credential.assert(await signInOptions(browser));
    expect((await browser.post('/api/auth/passkeys/sign-in', { response: assertion })).status).toBe(200);
    const attacker = server.client('localhost');
    await attacker.primeCsrf();
    const replayedElsewhere = await attacker.post('/api/auth/passkeys/sign-in', { response: assertion });
    expect(replayedElsewhere.body.code).toBe('PASSKEY_CHALLENGE_USED');
    const replayed = await browser.post('/api/auth/passkeys/sign-in', { response: assertion });
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe('PASSKEY_CHALLENGE_USED');
    await server.settled();
    expect(await activityCodes(client)).toContainEqual({ step: 'sign_in', code: 'PASSKEY_CHALLENGE_USED' });
  });

  it('refuses a challenge used twice, even in parallel', async () => {
    const { credential } = await userWithPasskey();
    const browser = server.client('localhost');
    const options = await signInOptions(browser);
    const first = credential.assert(options);
    const second = credential.assert(options);
    const answers = await Promise.all([first, second].map((response) => browser.post('/api/auth/passkeys/sign-in', { response })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.find((answer) => answer.status === 401)?.body.code).toBe('PASSKEY_CHALLENGE_USED');
  });

  it('refuses an assertion made for another origin', async () => {
    const { client, credential } = await userWithPasskey();
    const browser = server.client('localhost');
    for (const foreign of ['https://evil.example', 'http://localhost:1', 'http://127.0.0.1' + origin.slice(origin.lastIndexOf(':')), 'http://LOCALHOST.evil']) {
      const answer = await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(browser), { origin: foreign }) });
      expect(answer.body.code, foreign).toBe('PASSKEY_ORIGIN_MISMATCH');
    }
    await server.settled();
    expect(await activityCodes(client)).toContainEqual({ step: 'sign_in', code: 'PASSKEY_ORIGIN_MISMATCH' });
  });

  it('refuses a counter that goes backwards or stands still', async () => {
    const { client, credential } = await userWithPasskey();
    const browser = server.client('localhost');
    credential.counter = 10;
    expect((await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(browser)) })).status).toBe(200);
    for (const counter of [5, 11]) {
      const answer = await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(browser), { counter }) });
      expect(answer.body.code, String(counter)).toBe('PASSKEY_COUNTER_REGRESSED');
      credential.counter = 11;
    }
    await server.settled();
    expect(await activityCodes(client)).toContainEqual({ step: 'sign_in', code: 'PASSKEY_COUNTER_REGRESSED' });
  });

  it("refuses another account's credential: at re-authentication, and under another account's user handle", async () => {
    const alice = await userWithPasskey();
    const bob = await userWithPasskey();
    // Bob confirms with Alice's passkey.
    const options = await bob.client.post('/api/auth/passkeys/reauth/options');
    expect(options.body.options.allowCredentials).toEqual([{ id: bob.credential.id, type: 'public-key', transports: ['internal'] }]);
    const foreign = await bob.client.post('/api/auth/reauth', { response: alice.credential.assert(options.body.options) });
    expect(foreign.body.code).toBe('PASSKEY_USER_MISMATCH');
    // Alice's credential presented with Bob's user handle.
    const browser = server.client('localhost');
    const swapped = await browser.post('/api/auth/passkeys/sign-in', {
      response: alice.credential.assert(await signInOptions(browser), { userHandle: bob.credential.userHandle }),
    });
    expect(swapped.body.code).toBe('PASSKEY_USER_MISMATCH');
    // Bob's own passkey confirms him.
    const own = await bob.client.post('/api/auth/reauth', { response: bob.credential.assert((await bob.client.post('/api/auth/passkeys/reauth/options')).body.options) });
    expect(own.status).toBe(200);
    await server.settled();
    expect(await activityCodes(bob.client)).toContainEqual({ step: 'reauth', code: 'PASSKEY_USER_MISMATCH' });
    expect(await activityCodes(alice.client)).toContainEqual({ step: 'sign_in', code: 'PASSKEY_USER_MISMATCH' });
  });

  it('refuses a challenge past its time and a forged signature', async () => {
    const { credential } = await userWithPasskey();
    const browser = server.client('localhost');
    const options = await signInOptions(browser);
    server.clock.advance(5 * 60_000 + 1);
    expect((await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(options) })).body.code).toBe('PASSKEY_CHALLENGE_INVALID');
    const forged = credential.assert(await signInOptions(browser));
    forged.response.signature = new SoftCredential('localhost', origin).assert({ challenge: 'x' }).response.signature;
    expect((await browser.post('/api/auth/passkeys/sign-in', { response: forged })).body.code).toBe('PASSKEY_VERIFICATION_FAILED');
  });

  it('refuses a removed passkey; removing and renaming need a re-authentication', async () => {
    const { client, credential, passkeyId, username } = await userWithPasskey();
    server.clock.advance(5 * 60_000 + 1);
    expect((await client.request('PATCH', `/api/auth/passkeys/${passkeyId}`, { json: { name: 'Renamed' } })).body.code).toBe('PASSKEY_REAUTH_REQUIRED');
    expect((await client.request('DELETE', `/api/auth/passkeys/${passkeyId}`)).body.code).toBe('PASSKEY_REAUTH_REQUIRED');
    await reauth(client, username);
    const renamed = await client.request('PATCH', `/api/auth/passkeys/${passkeyId}`, { json: { name: 'Renamed' } });
    expect(renamed.body.name).toBe('Renamed');
    const removals = await Promise.all([0, 1].map(() => client.request('DELETE', `/api/auth/passkeys/${passkeyId}`)));
    expect(removals.map((answer) => answer.status).sort()).toEqual([200, 404]);
    const browser = server.client('localhost');
    const refused = await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(browser)) });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('PASSKEY_NOT_FOUND');
  });

  it("an operator's password reset removes the account's passkeys", async () => {
    const { credential, username } = await userWithPasskey();
    const outcome = await resetPassword(server.app.repos, username, 'a brand new password', TEST_KDF_COST);
    expect(outcome.passkeysRemoved).toBe(1);
    const browser = server.client('localhost');
    expect((await browser.post('/api/auth/passkeys/sign-in', { response: credential.assert(await signInOptions(browser)) })).body.code).toBe('PASSKEY_NOT_FOUND');
  });
});

describe('passkey sign-in limits', () => {
  it('counts refused passkey sign-ins per address, also in parallel: 429 once the budget is spent', async () => {
    const limited = await startServer({ env: { RATE_LIMIT_IP_FAILURES: '3' } });
    try {
      const limitedOrigin = limited.baseUrl.replace('127.0.0.1', 'localhost');
      const browser = limited.client('localhost');
      await browser.primeCsrf();
      const unknown = new SoftCredential('localhost', limitedOrigin);
      const options = await Promise.all([0, 1, 2, 3, 4].map(() => browser.post('/api/auth/passkeys/sign-in/options')));
      const answers = await Promise.all(options.map((option) => browser.post('/api/auth/passkeys/sign-in', { response: unknown.assert(option.body.options, { userHandle: 'c2VhbGRyb3AtdXNlcjox' }) })));
      const codes = answers.map((answer) => answer.body.code).sort();
      expect(codes).toEqual(['PASSKEY_NOT_FOUND', 'PASSKEY_NOT_FOUND', 'PASSKEY_NOT_FOUND', 'RATE_LIMITED', 'RATE_LIMITED']);
    } finally {
      await limited.close();
    }
  });
});

describe('relying party', () => {
  it('has no passkeys through an IP address without PUBLIC_URL', async () => {
    const client = server.client();
    await client.primeCsrf();
    const answer = await client.post('/api/auth/passkeys/sign-in/options');
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('PASSKEYS_UNAVAILABLE');
  });

  it('takes the RP ID from PUBLIC_URL and refuses another Host', async () => {
    const other = await startServer({ env: { PUBLIC_URL: 'https://files.example.com' } });
    try {
      const client = other.client('localhost');
      await client.primeCsrf();
      expect((await client.post('/api/auth/passkeys/sign-in/options')).body.code).toBe('PASSKEYS_UNAVAILABLE');
    } finally {
      await other.close();
    }
    const request = (host: string) => ({ host, protocol: 'http' }) as FastifyRequest;
    expect(relyingParty(request('files.example.com'), 'https://files.example.com')).toEqual({ id: 'files.example.com', origin: 'https://files.example.com', name: 'Sealdrop' });
    expect(relyingParty(request('FILES.example.com:443'), 'https://files.example.com').id).toBe('files.example.com');
    expect(() => relyingParty(request('evil.example'), 'https://files.example.com')).toThrow(expect.objectContaining({ code: 'PASSKEYS_UNAVAILABLE' }));
    // No PUBLIC_URL: only loopback names come from the request; never an address.
    expect(relyingParty(request('localhost:8080'), null)).toMatchObject({ id: 'localhost', origin: 'http://localhost:8080' });
    for (const host of ['files.example.com', '127.0.0.1:8080', '[::1]:8080', 'localhost.evil.example']) {
      expect(() => relyingParty(request(host), null), host).toThrow(expect.objectContaining({ code: 'PASSKEYS_UNAVAILABLE' }));
    }
    expect(() => relyingParty(request('10.0.0.1'), 'https://10.0.0.1')).toThrow(expect.objectContaining({ code: 'PASSKEYS_UNAVAILABLE' }));
  });
});
