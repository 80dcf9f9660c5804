// Passkeys of accounts made by single sign-on, against a real OpenID provider on loopback
// (tests/support/oidc-provider.ts) and a software authenticator, over real HTTP, on SQLite and,
// with DATABASE_URL, PostgreSQL: a fresh single sign-on counts as a re-authentication (for
// PASSKEY_REAUTH_TTL_MS, not after), `next` of the start survives the provider only as an app path,
// and a passkey never signs such an account in (the provider's rules are checked at every sign-in)
// while it still signs in a password account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_REAUTH_TTL_MS } from '../../contract/passkeys.ts';
import { signInAtProvider } from '../support/oidc-login.ts';
import { startSsoServer, type SsoServer } from './sso-server.ts';
import type { TestClient } from './http-client.ts';
import { SoftCredential } from './soft-authenticator.ts';
import { rsaSpki } from './public-keys.ts';

let sso: SsoServer;
let server: SsoServer['server'];
let origin: string;

beforeAll(async () => {
  // On localhost: passkeys take no IP address as relying party.
  sso = await startSsoServer({
    host: 'localhost',
    users: {
      carol: { email: 'carol@staff.example', groups: ['staff'] },
      dave: { email: 'dave@staff.example', groups: ['staff'] },
      erin: { email: 'erin@staff.example', groups: ['staff'] },
      frank: { email: 'frank@staff.example', groups: ['staff'] },
    },
  });
  ({ server, publicUrl: origin } = sso);
});
afterAll(() => sso?.close());

const start = (client: TestClient, next?: string) => sso.start(client, next);
const signIn = (client: TestClient, login: string, next?: string) => sso.signIn(client, login, next);

async function register(client: TestClient, extra: Record<string, unknown> = {}) {
  const credential = new SoftCredential('localhost', origin);
  const options = await client.post('/api/auth/passkeys/register/options');
  if (options.status !== 200) return { credential, options, added: null };
  const added = await client.post('/api/auth/passkeys', { name: 'Phone', response: credential.register(options.body.options), ...extra });
  return { credential, options, added };
}

async function passkeySignIn(client: TestClient, credential: SoftCredential, headers: Record<string, string> = {}) {
  await client.primeCsrf();
  const options = await client.post('/api/auth/passkeys/sign-in/options');
  expect(options.status).toBe(200);
  return client.post('/api/auth/passkeys/sign-in', { response: credential.assert(options.body.options) }, { headers });
}

const copy = (byte: number) => Buffer.alloc(64, byte).toString('base64');

describe('passkeys of single sign-on accounts', () => {
  it('registers a passkey without a password right after the sign-in, and not once the re-authentication is old', async () => {
    const client = server.client('localhost');
    expect(await signIn(client, 'carol')).toBe('/sso');
    const spki = rsaSpki();
    const made = await client.post('/api/auth/sso/key-pair', {
      public_key_spki: spki,
      recovery_copy: copy(1),
      device: { id: crypto.randomUUID(), name: 'Laptop', copy: copy(2) },
    });
    expect(made.status).toBe(200);

    const { added } = await register(client, { wrapped_private_key: { encryptedPrivateKey: copy(3), public_key_spki: spki } });
    expect(added?.status).toBe(200);
    expect(added?.body).toMatchObject({ name: 'Phone', unlocks_keys: true });

    server.clock.advance(PASSKEY_REAUTH_TTL_MS + 1);
    const late = await register(client);
    expect(late.options.status).toBe(403);
    expect(late.options.body.code).toBe('PASSKEY_REAUTH_REQUIRED');
    // Renaming and removing ask the same.
    const [listed] = (await client.get('/api/auth/passkeys')).body.passkeys as Array<{ id: number }>;
    expect((await client.request('PATCH', `/api/auth/passkeys/${listed!.id}`, { json: { name: 'Old phone' } })).body.code).toBe('PASSKEY_REAUTH_REQUIRED');

    // Signing in again at the provider re-authenticates (a new session) and comes back through /sso;
    // the provider is asked to make the person sign in again, not to answer from its own session.
    const again = await start(client, '/profile');
    expect(new URL(again.headers.get('location')!).searchParams.get('prompt')).toBe('login');
    expect(new URL((await start(server.client('localhost'))).headers.get('location')!).searchParams.get('prompt')).toBeNull();
    expect(await signIn(client, 'carol', '/profile')).toBe('/sso?next=%2Fprofile');
    expect((await register(client)).added?.status).toBe(200);
  });

  it('a passkey confirms within a single sign-on session and answers its copy', async () => {
    const client = server.client('localhost');
    await signIn(client, 'dave');
    const spki = rsaSpki();
    await client.post('/api/auth/sso/key-pair', { public_key_spki: spki, recovery_copy: copy(1), device: { id: crypto.randomUUID(), name: 'Laptop', copy: copy(2) } });
    const { credential } = await register(client, { wrapped_private_key: { encryptedPrivateKey: copy(4), public_key_spki: spki } });

    // Another browser, signed in by the provider: the passkey's assertion hands over its copy.
    const other = server.client('localhost');
    await signIn(other, 'dave');
    const options = await other.post('/api/auth/passkeys/reauth/options');
    expect(options.status).toBe(200);
    const reauth = await other.post('/api/auth/reauth', { response: credential.assert(options.body.options) });
    expect(reauth.status).toBe(200);
    expect(reauth.body.wrapped_private_key).toEqual({ encryptedPrivateKey: copy(4), credential_id: credential.id });
  });

  it('refuses a passkey sign-in of an account linked to the provider, and records it', async () => {
    const client = server.client('localhost');
    await signIn(client, 'erin');
    const { credential, added } = await register(client);
    expect(added?.status).toBe(200);

    // An answer that does not verify says nothing about the account: the refusal comes after the check.
    const forger = server.client('localhost');
    await forger.primeCsrf();
    const forgedOptions = await forger.post('/api/auth/passkeys/sign-in/options');
    const forged = await forger.post('/api/auth/passkeys/sign-in', { response: credential.assert(forgedOptions.body.options, { origin: 'https://evil.example' }) });
    expect(forged.body.code).toBe('PASSKEY_ORIGIN_MISMATCH');

    const stranger = server.client('localhost');
    const refused = await passkeySignIn(stranger, credential);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PASSKEY_SIGN_IN_THROUGH_SSO');
    expect(refused.body.detail).toMatch(/signs in through your organisation/);
    expect(stranger.sessionToken).toBeUndefined();
    expect((await stranger.get('/api/auth/users/me')).status).toBe(401);
    // In German for a German browser.
    const german = await passkeySignIn(server.client('localhost'), credential, { 'accept-language': 'de' });
    expect(german.body.code).toBe('PASSKEY_SIGN_IN_THROUGH_SSO');
    expect(german.body.detail).toMatch(/Organisation/);

    await server.settled();
    const log = await client.get('/api/activity?kind=passkey.failed');
    expect(log.body.entries.map((entry: { details: unknown }) => entry.details)).toContainEqual({ step: 'sign_in', code: 'PASSKEY_SIGN_IN_THROUGH_SSO' });
  });

  it('still signs in a password account with its passkey', async () => {
    await server.createUser('grace', 'correct horse battery');
    const client = server.client('localhost');
    expect((await client.login('grace', 'correct horse battery')).status).toBe(200);
    expect((await client.post('/api/auth/reauth', { auth_secret: await client.authSecret('grace', 'correct horse battery') })).status).toBe(200);
    const { credential } = await register(client);
    const fresh = server.client('localhost');
    const signedIn = await passkeySignIn(fresh, credential);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.username).toBe('grace');
    // A password sign-in does not count as a re-authentication by itself.
    expect((await fresh.post('/api/auth/passkeys/register/options')).body.code).toBe('PASSKEY_REAUTH_REQUIRED');
  });

  it('keeps `next` only as a path of the app', async () => {
    for (const next of ['/profile', '/files/7?tab=links#top', '/%2F%2Fevil.example', '/sso?next=%2Fprofile']) {
      const client = server.client('localhost');
      expect(await signIn(client, 'frank', next), next).toBe(`/sso?next=${encodeURIComponent(next)}`);
    }
    const refused = [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'profile',
      '',
      ' /profile',
      '/pro file',
      '/profile\n',
      '/profile\t',
      '/\u0000x',
      '\u0009//evil.example',
      '/x\\y',
      `/${'a'.repeat(600)}`,
    ];
    for (const next of refused) {
      const answer = await start(server.client('localhost'), next);
      expect(answer.status, JSON.stringify(next)).toBe(422);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
    // Twice in the query: not a string.
    expect((await server.client('localhost').get('/api/auth/sso/start?next=/a&next=/b')).status).toBe(422);
  });

  it('drops a `next` written into the flow cookie by hand', async () => {
    const client = server.client('localhost');
    const started = await start(client, '/profile');
    const cookie = 'sealdrop_sso_flow';
    const flow = JSON.parse(Buffer.from(client.cookies.get(cookie)!, 'base64url').toString()) as Record<string, unknown>;
    expect(flow.next).toBe('/profile');
    flow.next = '//evil.example';
    client.cookies.set(cookie, Buffer.from(JSON.stringify(flow)).toString('base64url'));
    const back = await signInAtProvider(started.headers.get('location')!, 'frank');
    const answer = await client.get(`/api/auth/sso/callback${back.search}`);
    expect(answer.headers.get('location')).toBe('/sso');
  });
});
