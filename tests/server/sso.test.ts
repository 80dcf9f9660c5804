// Single sign-on against a real OpenID provider on loopback (tests/support/oidc-provider.ts:
// oidc-provider, a certified implementation), over real HTTP, on SQLite and, with DATABASE_URL,
// PostgreSQL: the code flow with PKCE, state and nonce; every forged or replayed part refused;
// who may sign in decided again at each sign-in; the devices, recovery and approval routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider } from '../support/oidc-login.ts';
import type { TestProvider } from '../support/oidc-provider.ts';
import type { TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { startSsoServer, type SsoServer } from './sso-server.ts';
import { rsaSpki, p256Spki } from './public-keys.ts';

const FLOW_COOKIE = 'sealdrop_sso_flow';

let sso: SsoServer;
let provider: TestProvider;
let server: TestServer;
let PUBLIC_URL: string;
let CALLBACK: string;

beforeAll(async () => {
  sso = await startSsoServer({
    env: { OIDC_ADMIN_GROUP: 'admins', SSO_SESSION_HOURS: '1', PASSWORD_SIGN_IN: 'off' },
    codeTtlSeconds: 2,
    users: {
      alice: { email: 'alice@staff.example', groups: ['staff'], name: 'Alice Example' },
      boss: { email: 'boss@elsewhere.example', groups: ['admins'] },
      guest: { email: 'guest@elsewhere.example', groups: [] },
      invitee: { email: 'invitee@elsewhere.example', groups: [] },
      unverified: { email: 'unverified@elsewhere.example', email_verified: false, groups: [] },
      racer: { email: 'racer@staff.example', groups: ['staff'] },
    },
  });
  ({ server, provider, publicUrl: PUBLIC_URL } = sso);
  CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;
});
afterAll(() => sso?.close());

/** Starts a sign-in in `client`'s browser: the provider URL it is sent to. */
async function start(client: TestClient): Promise<string> {
  const answer = await client.get('/api/auth/sso/start');
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

/** The callback's path and query as the provider sent the browser back. */
function callbackPath(url: URL): string {
  return `/api/auth/sso/callback${url.search}`;
}

async function callback(client: TestClient, url: URL): Promise<string> {
  const answer = await client.get(callbackPath(url));
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

/** A whole sign-in as `login`; where the callback sent the browser. */
const signIn = (client: TestClient, login: string): Promise<string> => sso.signIn(client, login);

function editFlowCookie(client: TestClient, edit: (flow: Record<string, unknown>) => void): void {
  const flow = JSON.parse(Buffer.from(client.cookies.get(FLOW_COOKIE)!, 'base64url').toString()) as Record<string, unknown>;
  edit(flow);
  client.cookies.set(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'));
}

const copy = (byte: number) => Buffer.alloc(64, byte).toString('base64');

describe('single sign-on', () => {
  it('tells the sign-in page what it offers', async () => {
    expect((await server.client().get('/api/auth/sso')).body).toEqual({ sso: { name: 'Example Staff' }, password_sign_in: false });
  });

  it('signs in by the code flow with PKCE, state and nonce, and makes an account without a password', async () => {
    const client = server.client();
    const providerUrl = new URL(await start(client));
    expect(providerUrl.origin).toBe(provider.issuer);
    expect(providerUrl.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(providerUrl.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(providerUrl.searchParams.get('redirect_uri')).toBe(CALLBACK);

    expect(await callback(client, await signInAtProvider(providerUrl, 'alice'))).toBe('/sso');
    const me = await client.get('/api/auth/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'alice', email: 'alice@staff.example', has_password: false, public_key_spki: null, org_role: 'member' });
    // The flow is used up: the cookie is gone.
    expect(client.cookies.has(FLOW_COOKIE)).toBe(false);

    // The same person again: the same account.
    const again = server.client();
    expect(await signIn(again, 'alice')).toBe('/sso');
    expect((await again.get('/api/auth/users/me')).body.id).toBe(me.body.id);
  });

  it('refuses a callback with another state, or in a browser that did not start the sign-in', async () => {
    const client = server.client();
    const back = await signInAtProvider(await start(client), 'alice');
    const forged = new URL(back);
    forged.searchParams.set('state', 'x'.repeat(43));
    expect(await callback(client, forged)).toBe('/login?sso_error=SSO_FLOW_INVALID');

    const other = server.client();
    expect(await callback(other, await signInAtProvider(await start(client), 'alice'))).toBe('/login?sso_error=SSO_FLOW_INVALID');
    expect((await other.get('/api/auth/users/me')).status).toBe(401);
  });

  it('refuses an ID token with another nonce, and a code with another PKCE verifier', async () => {
    const nonce = server.client();
    const nonceBack = await signInAtProvider(await start(nonce), 'alice');
    editFlowCookie(nonce, (flow) => (flow.nonce = 'n'.repeat(43)));
    expect(await callback(nonce, nonceBack)).toBe('/login?sso_error=SSO_SIGN_IN_FAILED');

    const verifier = server.client();
    const verifierBack = await signInAtProvider(await start(verifier), 'alice');
    editFlowCookie(verifier, (flow) => (flow.codeVerifier = 'v'.repeat(43)));
    expect(await callback(verifier, verifierBack)).toBe('/login?sso_error=SSO_SIGN_IN_FAILED');
    expect((await verifier.get('/api/auth/users/me')).status).toBe(401);
  });

  it('refuses a code used twice and a code that expired', async () => {
    const client = server.client();
    const back = await signInAtProvider(await start(client), 'alice');
    const flowCookie = client.cookies.get(FLOW_COOKIE)!;
    expect(await callback(client, back)).toBe('/sso');
    // Replayed with the flow it belonged to (as whoever captured both would).
    const replay = server.client();
    replay.cookies.set(FLOW_COOKIE, flowCookie);
    expect(await callback(replay, back)).toBe('/login?sso_error=SSO_SIGN_IN_FAILED');
    expect((await replay.get('/api/auth/users/me')).status).toBe(401);

    const late = server.client();
    const lateBack = await signInAtProvider(await start(late), 'alice');
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(await callback(late, lateBack)).toBe('/login?sso_error=SSO_SIGN_IN_FAILED');
  });

  it('decides who may sign in at every sign-in: out of the allowed group, refused next time', async () => {
    provider.setUser('leaver', { email: 'leaver@staff.example', groups: ['staff'] });
    const first = server.client();
    expect(await signIn(first, 'leaver')).toBe('/sso');
    provider.setUser('leaver', { email: 'leaver@staff.example', groups: [] });
    const next = server.client();
    expect(await signIn(next, 'leaver')).toBe('/login?sso_error=SSO_NOT_ALLOWED');
    expect((await next.get('/api/auth/users/me')).status).toBe(401);

    expect(await signIn(server.client(), 'guest')).toBe('/login?sso_error=SSO_NOT_ALLOWED');
    expect(await server.app.repos.users.findByUsername('guest')).toBeUndefined();
  });

  it('makes members of the admin group organisation admins; an invitation lets its person in with its role', async () => {
    const boss = server.client();
    expect(await signIn(boss, 'boss')).toBe('/sso');
    expect((await boss.get('/api/auth/users/me')).body.org_role).toBe('admin');

    const invited = await boss.post('/api/org/invitations', { email: 'Invitee@Elsewhere.example', display_name: 'Ina Vitee', org_role: 'admin' });
    expect(invited.status).toBe(201);
    const invitee = server.client();
    expect(await signIn(invitee, 'invitee')).toBe('/sso');
    expect((await invitee.get('/api/auth/users/me')).body).toMatchObject({ username: 'invitee', org_role: 'admin', has_password: false });
    const listed = await boss.get('/api/org/invitations');
    expect(listed.body.invitations.find((row: { email: string }) => row.email === 'Invitee@Elsewhere.example')?.status).toBe('accepted');

    // An invitation to an address the provider did not verify is not enough.
    expect((await boss.post('/api/org/invitations', { email: 'unverified@elsewhere.example' })).status).toBe(201);
    expect(await signIn(server.client(), 'unverified')).toBe('/login?sso_error=SSO_EMAIL_UNVERIFIED');
  });

  it('makes one account when two sign-ins of a new person finish at once', async () => {
    const browsers = [server.client(), server.client(), server.client()];
    const backs = await Promise.all(browsers.map(async (client) => signInAtProvider(await start(client), 'racer')));
    const landed = await Promise.all(browsers.map((client, index) => callback(client, backs[index]!)));
    expect(landed).toEqual(['/sso', '/sso', '/sso']);
    const ids = await Promise.all(browsers.map(async (client) => (await client.get('/api/auth/users/me')).body.id));
    expect(new Set(ids).size).toBe(1);
  });

  it('bounds the session, refuses passwords, and ends the provider session on sign-out', async () => {
    const client = server.client();
    expect(await signIn(client, 'alice')).toBe('/sso');
    const logout = await client.post('/api/auth/logout');
    const end = new URL(logout.body.end_session_url);
    expect(end.origin + end.pathname).toBe(`${provider.issuer}/session/end`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect((await client.get('/api/auth/users/me')).status).toBe(401);

    const password = server.client();
    await password.primeCsrf();
    expect((await password.post('/api/auth/token', { username: 'alice', auth_secret: Buffer.alloc(32).toString('base64') })).body.code).toBe('PASSWORD_SIGN_IN_OFF');

    const bounded = server.client();
    expect(await signIn(bounded, 'alice')).toBe('/sso');
    server.clock.advance(61 * 60_000);
    expect((await bounded.get('/api/auth/users/me')).status).toBe(401);
    server.clock.advance(-61 * 60_000);
  });
});

describe('the private key of an account without a password', () => {
  it('stores the first key pair once, with a recovery copy and this device', async () => {
    provider.setUser('keys1', { email: 'keys1@staff.example', groups: ['staff'] });
    const client = server.client();
    expect(await signIn(client, 'keys1')).toBe('/sso');
    const spki = rsaSpki();
    const device = { id: crypto.randomUUID(), name: 'Chromium on Linux', copy: copy(1) };
    const made = await client.post('/api/auth/sso/key-pair', { public_key_spki: spki, recovery_copy: copy(2), device });
    expect(made.status).toBe(200);
    expect(made.body.public_key_spki).toBe(spki);
    expect((await client.post('/api/auth/sso/key-pair', { public_key_spki: rsaSpki(), recovery_copy: copy(3), device })).body.code).toBe('KEY_PAIR_EXISTS');
    expect((await client.get('/api/auth/recovery-copy')).body).toEqual({ copy: copy(2) });
    expect((await client.get(`/api/auth/devices/${device.id}/copy`)).body).toEqual({ copy: copy(1) });
    expect((await client.get('/api/auth/devices')).body.devices).toMatchObject([{ id: device.id, name: 'Chromium on Linux' }]);

    // Another device, trusted, listed, then removed: its copy is gone.
    const laptop = crypto.randomUUID();
    expect((await client.put(`/api/auth/devices/${laptop}`, { name: 'Firefox', copy: copy(4), wrapped_for_spki: spki })).status).toBe(204);
    expect((await client.put(`/api/auth/devices/${laptop}`, { name: 'Firefox', copy: copy(5), wrapped_for_spki: spki })).status).toBe(204);
    expect((await client.get(`/api/auth/devices/${laptop}/copy`)).body).toEqual({ copy: copy(5) });
    expect((await client.put(`/api/auth/devices/${crypto.randomUUID()}`, { name: 'Old', copy: copy(6), wrapped_for_spki: rsaSpki() })).body.code).toBe('KEY_PAIR_CHANGED');
    const removals = await Promise.all([client.request('DELETE', `/api/auth/devices/${laptop}`), client.request('DELETE', `/api/auth/devices/${laptop}`)]);
    expect(removals.map((answer) => answer.status).sort()).toEqual([204, 404]);
    expect((await client.get(`/api/auth/devices/${laptop}/copy`)).body.code).toBe('DEVICE_NOT_FOUND');

    // Another account cannot read or take this account's device.
    const other = server.client();
    expect(await signIn(other, 'alice')).toBe('/sso');
    expect((await other.get(`/api/auth/devices/${device.id}/copy`)).body.code).toBe('DEVICE_NOT_FOUND');
    expect((await other.request('DELETE', `/api/auth/devices/${device.id}`)).status).toBe(404);
    expect((await client.get(`/api/auth/devices/${device.id}/copy`)).status).toBe(200);
  });

  it('refuses malformed device ids, copies and keys', async () => {
    const client = server.client();
    expect(await signIn(client, 'alice')).toBe('/sso');
    for (const id of ['not-a-uuid', 'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA', '../devices', '00000000-0000-1000-8000-000000000000']) {
      expect((await client.get(`/api/auth/devices/${encodeURIComponent(id)}/copy`)).status, id).toBe(422);
    }
    expect((await client.post('/api/auth/device-approvals', { requester_spki: rsaSpki(), name: 'x' })).status).toBe(422);
    expect((await client.post('/api/auth/device-approvals', { requester_spki: 'bm90IGEga2V5', name: 'x' })).status).toBe(422);
    expect((await client.post('/api/auth/sso/key-pair', { public_key_spki: p256Spki(), recovery_copy: copy(1), device: { id: crypto.randomUUID(), name: 'x', copy: copy(1) } })).status).toBe(422);
  });

  it('passes the key from an unlocked device to a new one through an approval', async () => {
    provider.setUser('keys2', { email: 'keys2@staff.example', groups: ['staff'] });
    const unlocked = server.client();
    expect(await signIn(unlocked, 'keys2')).toBe('/sso');
    const newDevice = server.client();
    expect(await signIn(newDevice, 'keys2')).toBe('/sso');

    const requesterSpki = p256Spki();
    const created = await newDevice.post('/api/auth/device-approvals', { requester_spki: requesterSpki, name: 'Firefox on Linux' });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect((await newDevice.get(`/api/auth/device-approvals/${id}`)).body.status).toBe('pending');

    const pending = await unlocked.get('/api/auth/device-approvals');
    expect(pending.body.approvals).toMatchObject([{ id, name: 'Firefox on Linux', requester_spki: requesterSpki }]);
    // Another account sees nothing of it and cannot answer it.
    const stranger = server.client();
    expect(await signIn(stranger, 'alice')).toBe('/sso');
    expect((await stranger.get('/api/auth/device-approvals')).body.approvals).toEqual([]);
    expect((await stranger.post(`/api/auth/device-approvals/${id}/approve`, { approver_spki: p256Spki(), copy: copy(9) })).body.code).toBe('APPROVAL_NOT_FOUND');

    // Two approvers racing: one answer wins.
    const approverSpki = p256Spki();
    const answers = await Promise.all([
      unlocked.post(`/api/auth/device-approvals/${id}/approve`, { approver_spki: approverSpki, copy: copy(7) }),
      unlocked.post(`/api/auth/device-approvals/${id}/approve`, { approver_spki: p256Spki(), copy: copy(8) }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404]);
    const status = await newDevice.get(`/api/auth/device-approvals/${id}`);
    expect(status.body.status).toBe('approved');
    expect((await unlocked.get('/api/auth/device-approvals')).body.approvals).toEqual([]);
    expect((await newDevice.request('DELETE', `/api/auth/device-approvals/${id}`)).status).toBe(204);
    expect((await newDevice.get(`/api/auth/device-approvals/${id}`)).body.code).toBe('APPROVAL_NOT_FOUND');
  });

  it('keeps at most five open approval requests per account, even when asked at once', async () => {
    provider.setUser('keys3', { email: 'keys3@staff.example', groups: ['staff'] });
    const client = server.client();
    expect(await signIn(client, 'keys3')).toBe('/sso');
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post('/api/auth/device-approvals', { requester_spki: p256Spki(), name: 'Tab' })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'APPROVAL_LIMIT_REACHED')).toBe(true);
    // They expire after ten minutes, and then new ones may be asked for.
    server.clock.advance(11 * 60_000);
    expect((await client.get('/api/auth/device-approvals')).body.approvals).toEqual([]);
    expect((await client.post('/api/auth/device-approvals', { requester_spki: p256Spki(), name: 'Tab' })).status).toBe(201);
    server.clock.advance(-11 * 60_000);
  });
});
