// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { unwrapPrivateKey , encodeKdfParams, KDF_SCHEME_ARGON2ID, newAccountKdfParams, parseAccountKdfParams } from '../../../crypto/index.ts';
import { heldResponse, installFakeApi, type FakeHandler, type RecordedRequest } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedOutState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { makeKeyData } from '../keys/testing/keyData.ts';
import { hasSeenBoundBlock, hasSignedInWithNewScheme, rememberBoundBlock } from './newSignInMemory.ts';
import { authSecretOf, preloginHandler, TEST_ACCOUNT_KDF_PARAMS, TEST_UNBOUND_KDF_PARAMS } from './testing/prelogin.ts';

const pool = inProcessCryptoPool();
afterAll(() => pool.terminate());

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
  localStorage.clear();
});

/**
 * The app's API with the pre-login answered (every sign-in starts with it) and the sign-in page's
 * question what it offers (no single sign-on: tests/server/sso.test.ts and e2e/sso.spec.ts have
 * that); `requests` leaves that question out, so each test counts the sign-in's own calls.
 */
function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'POST /api/auth/prelogin': preloginHandler(),
    'GET /api/auth/sso': () => ({ status: 200, body: { sso: null, password_sign_in: true } }),
    ...handlers,
  });
  restore = api.restore;
  return {
    ...api,
    get requests() {
      return api.requests.filter((request) => request.path !== '/api/auth/sso');
    },
  };
}

const tokenRequests = (requests: RecordedRequest[]) => requests.filter((r) => r.path === '/api/auth/token');
const formOf = (request: RecordedRequest | undefined) => Object.fromEntries(new URLSearchParams(request?.body));

function typeInto(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

// The inline error (inside <main>); the notification is a second alert outside it.
function findInlineAlert() {
  return within(screen.getByRole('main')).findByRole('alert');
}

function queryInlineAlert() {
  return within(screen.getByRole('main')).queryByRole('alert');
}

async function openLogin() {
  const rendered = renderAppAt('/login', { preloadedState: signedOutState(), cryptoPool: () => pool });
  await screen.findByRole('heading', { name: 'Admin Login' });
  // The page offers its choices once it knows what the server offers (GET /api/auth/sso).
  await screen.findByLabelText('Username');
  return rendered;
}

describe('Login screen (spec sections 2, 4, 5)', () => {
  it('a user without 2FA goes straight to /dashboard; the button reads Checking... while waiting', async () => {
    const tokenAnswer = heldResponse();
    const api = withApi({ 'POST /api/auth/token': tokenAnswer.handler });
    const { router } = await openLogin();

    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const checking = await screen.findByRole('button', { name: 'Checking...' });
    expect(checking).toBeVisible();
    expect(checking, 'no second sign-in while the first is checked').toBeDisabled();

    await waitFor(() => expect(tokenRequests(api.requests)).toHaveLength(1));
    tokenAnswer.release({ status: 200, body: { user: testUser } });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
    // Pre-login for the account's parameters, then the derived secret: never the password.
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ username: 'alice' });
    expect(formOf(tokenRequests(api.requests)[0])).toEqual({ username: 'alice', auth_secret: await authSecretOf('correct-horse-1') });
    expect(api.requests.filter((r) => r.body.includes('correct-horse-1'))).toEqual([]);
  });

  it("'OTP code required' leads to the code step, which shows the username and completes the login", async () => {
    const api = withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { user: { ...testUser, is_2fa_enabled: true } } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByLabelText('Authentication Code')).toBeVisible();
    expect(screen.getByText('alice')).toBeVisible();
    typeInto('Authentication Code', '12x3456');
    expect((screen.getByLabelText('Authentication Code') as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(JSON.parse(api.requests.find((r) => r.path === '/api/auth/token/2fa')!.body)).toEqual({ username: 'alice', code: '123456' });
  });

  it("'Enter password instead?' returns to step one and clears password, code and error", async () => {
    withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 401, body: { detail: 'Invalid authentication code' } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await findInlineAlert()).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Enter password instead?' }));
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('alice');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(queryInlineAlert()).toBeNull();
  });

  it('a wrong password shows the mapped message inline and as a notification', async () => {
    withApi({ 'POST /api/auth/token': () => ({ status: 401, body: { detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.getAllByText('Incorrect username or password.')).toHaveLength(2));
    expect((await findInlineAlert()).textContent).toContain('Incorrect username or password.');
  });

  it('a pre-login block below the default cost (19 MiB, 2 passes) is refused with the exact text; no secret is sent', async () => {
    const weak = encodeKdfParams({ scheme: KDF_SCHEME_ARGON2ID, memoryKiB: 19_456, passes: 2, lanes: 1, salt: new Uint8Array(16).fill(0x22) });
    const api = withApi({ 'POST /api/auth/prelogin': preloginHandler(weak), 'POST /api/auth/token': () => ({ status: 200, body: { ok: true } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain(
      'The server asked for weaker password protection than this app allows, so your password was not used and nothing was sent. Please contact your administrator.',
    );
    expect(api.requests.map((r) => r.path)).toEqual(['/api/auth/prelogin']);
  });

  it('an unexpected response shape is an error with the exact text', async () => {
    withApi({ 'POST /api/auth/token': () => ({ status: 200, body: { ok: true } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain('Login failed: Unexpected server response structure.');
  });

  it('after the code step only a user is accepted', async () => {
    withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect((await findInlineAlert()).textContent).toContain('Login failed: Invalid response after OTP submission.');
  });

  it('username and password are required; nothing is sent without them', async () => {
    const api = withApi({});
    await openLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain('Please enter your username and password.');
    expect(api.requests).toHaveLength(0);
  });

  it('the code must be exactly 6 digits before it is sent', async () => {
    const api = withApi({ 'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '123');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect((await findInlineAlert()).textContent).toContain('6-digit code');
    expect(api.requests.map((r) => r.path)).toEqual(['/api/auth/prelogin', '/api/auth/token']);
  });
});

describe('first sign-in of an account made before zero-knowledge sign-in', () => {
  const LEGACY_PASSWORD = 'old-horse-battery';

  /** The server of such an account: the secret is refused, the password accepted once, then the upgrade. */
  function legacyServer(options: { user?: typeof testUser; keyData?: { encryptedPrivateKey: string; kdfSalt: string }; upgrade?: FakeHandler; secondFactor?: boolean }) {
    const user = options.user ?? testUser;
    return withApi({
      'POST /api/auth/token': (request) => {
        const form = formOf(request);
        if (form.auth_secret) return { status: 401, body: { detail: 'This account signs in with its password once more', code: 'SIGN_IN_UPGRADE_REQUIRED' } };
        if (form.password !== LEGACY_PASSWORD) return { status: 401, body: { detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' } };
        return { status: 200, body: options.secondFactor ? { message: 'OTP code required', username: user.username } : { user } };
      },
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { user } }),
      'GET /api/auth/users/me/encrypted-key': () =>
        options.keyData ? { status: 200, body: options.keyData } : { status: 404, body: { detail: 'Encrypted key data not found', code: 'ENCRYPTED_KEY_NOT_FOUND' } },
      'POST /api/auth/upgrade-login': options.upgrade ?? (() => ({ status: 200, body: { user } })),
      'POST /api/auth/logout': () => ({ status: 200, body: { detail: 'Logged out' } }),
    });
  }

  // The upgrade derives under a fresh block at the default cost (64 MiB argon2id, in this process).
  const UPGRADE_WAIT = { timeout: 30_000 };

  /** Signs in; the page then asks before the password itself is sent, and this confirms. */
  async function signIn(password = LEGACY_PASSWORD) {
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', password);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send my password once' }));
  }

  it('asks before the password itself is sent, and sends nothing when cancelled', async () => {
    const api = legacyServer({});
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', LEGACY_PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const question = await screen.findByRole('alertdialog', { name: 'Send your password?' });
    expect(question).toHaveTextContent('This account still uses the old sign-in.');
    expect(api.requests.filter((r) => r.body.includes(LEGACY_PASSWORD))).toEqual([]);
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(api.requests.filter((r) => r.body.includes(LEGACY_PASSWORD))).toEqual([]);
    expect(tokenRequests(api.requests).map(formOf)).toEqual([{ username: 'alice', auth_secret: await authSecretOf(LEGACY_PASSWORD) }]);
  });

  it('an account that signed in with its secret on this device is never asked for its password again: the answer is refused, nothing sent', async () => {
    // One normal sign-in on this device, then the server (or a proxy) claims the account is of the old scheme.
    let hostile = false;
    const api = withApi({
      'POST /api/auth/token': (request) => {
        const form = formOf(request);
        if (hostile) return { status: 401, body: { detail: 'This account signs in with its password once more', code: 'SIGN_IN_UPGRADE_REQUIRED' } };
        if (form.auth_secret) return { status: 200, body: { user: testUser } };
        return { status: 200, body: { user: testUser } };
      },
      'POST /api/auth/logout': () => ({ status: 200, body: { detail: 'Logged out' } }),
    });
    await openLogin();
    typeInto('Username', 'Alice');
    typeInto('Password', LEGACY_PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    cleanup();

    hostile = true;
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', LEGACY_PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain('this account already uses the new sign-in on this device. Nothing was sent.');
    expect(screen.queryByRole('button', { name: 'Send my password once' })).toBeNull();
    expect(api.requests.filter((r) => r.body.includes(LEGACY_PASSWORD))).toEqual([]);
    expect(tokenRequests(api.requests).every((r) => !('password' in formOf(r)))).toBe(true);
  });

  it('sends the password once, then moves the account in one call (new block, its secret, the key re-wrapped) before the dashboard', async () => {
    const { keyData, publicKeySpki } = await makeKeyData(LEGACY_PASSWORD);
    const user = { ...testUser, public_key_spki: publicKeySpki };
    const api = legacyServer({ user, keyData });
    await signIn();
    expect(await screen.findByRole('status')).toHaveTextContent('Securing your account for the new sign-in...');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' }, UPGRADE_WAIT)).toBeVisible();

    const tokens = tokenRequests(api.requests).map(formOf);
    expect(tokens).toEqual([{ username: 'alice', auth_secret: await authSecretOf(LEGACY_PASSWORD) }, { username: 'alice', password: LEGACY_PASSWORD }]);
    const upgrade = JSON.parse(api.requests.find((r) => r.path === '/api/auth/upgrade-login')!.body);
    expect(Object.keys(upgrade).sort()).toEqual(['auth_secret', 'kdf_params', 'password', 'private_key']);
    expect(upgrade.kdf_params).not.toBe(TEST_ACCOUNT_KDF_PARAMS);
    expect(upgrade.auth_secret).toBe(await authSecretOf(LEGACY_PASSWORD, upgrade.kdf_params));
    expect(upgrade.private_key).toMatchObject({ public_key_spki: publicKeySpki, kdfSalt: upgrade.kdf_params });
    await expect(unwrapPrivateKey(upgrade.private_key, LEGACY_PASSWORD)).resolves.toMatchObject({ type: 'private' });
    // The password went in exactly those two requests, and nowhere else.
    expect(api.requests.filter((r) => r.body.includes(LEGACY_PASSWORD)).map((r) => r.path)).toEqual(['/api/auth/token', '/api/auth/upgrade-login']);
    // Upgraded: this device never sends this account's password again.
    expect(hasSignedInWithNewScheme('Alice')).toBe(true);
  });

  it('with 2FA the code step comes first; the upgrade follows it', async () => {
    const api = legacyServer({ secondFactor: true });
    await signIn();
    await screen.findByLabelText('Authentication Code');
    expect(api.requests.some((r) => r.path === '/api/auth/upgrade-login')).toBe(false);
    typeInto('Authentication Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' }, UPGRADE_WAIT)).toBeVisible();
    const paths = api.requests.map((r) => r.path);
    expect(paths.indexOf('/api/auth/token/2fa')).toBeLessThan(paths.indexOf('/api/auth/upgrade-login'));
    // No key pair yet: nothing to re-wrap, the upgrade carries the login secret only.
    expect(JSON.parse(api.requests.find((r) => r.path === '/api/auth/upgrade-login')!.body)).not.toHaveProperty('private_key');
  });

  it('a failed upgrade signs this browser out and says nothing was changed', async () => {
    const api = legacyServer({ upgrade: () => ({ status: 500, body: { detail: 'Internal Server Error', code: 'INTERNAL' } }) });
    const { store } = await openLoginAndSubmit();
    expect((await within(screen.getByRole('main')).findByRole('alert', {}, UPGRADE_WAIT)).textContent).toContain('Nothing was changed: please sign in again.');
    expect(store.getState().auth.status).toBe('anonymous');
    expect(api.requests.map((r) => r.path)).toContain('/api/auth/logout');
    expect(screen.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  });

  async function openLoginAndSubmit() {
    const rendered = await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', LEGACY_PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send my password once' }));
    return rendered;
  }
});

describe('Login screen: the account salt bound to the username', () => {
  const NAME_REFUSED =
    'The server answered password protection that is not tied to this username, so your password was not used and nothing was sent. ' +
    'Your server or a proxy in front of it may be trying to attack your password; tell your administrator.';

  async function signInAs(username: string, password: string) {
    await openLogin();
    typeInto('Username', username);
    typeInto('Password', password);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  }

  it('a pre-login block bound to another name is refused with the exact text; nothing is sent after the pre-login', async () => {
    const api = withApi({ 'POST /api/auth/prelogin': preloginHandler(newAccountKdfParams('mallory')), 'POST /api/auth/token': () => ({ status: 200, body: { user: testUser } }) });
    await signInAs('alice', 'correct-horse-1');
    expect((await findInlineAlert()).textContent).toContain(NAME_REFUSED);
    expect(api.requests.map((r) => r.path)).toEqual(['/api/auth/prelogin']);
  });

  it('an unbound block for a name this device has seen bound is refused with the same text; nothing is sent after the pre-login', async () => {
    rememberBoundBlock('Alice');
    const api = withApi({ 'POST /api/auth/prelogin': preloginHandler(TEST_UNBOUND_KDF_PARAMS), 'POST /api/auth/token': () => ({ status: 200, body: { user: testUser } }) });
    await signInAs('alice', 'correct-horse-1');
    expect((await findInlineAlert()).textContent).toContain(NAME_REFUSED);
    expect(api.requests.map((r) => r.path)).toEqual(['/api/auth/prelogin']);
  });

  it('a sign-in under an unbound block moves the account to a block bound to its name in one call (both secrets, the key re-wrapped); the device remembers it', async () => {
    const password = 'correct-horse-1';
    const { keyData, publicKeySpki } = await makeKeyData(password, TEST_UNBOUND_KDF_PARAMS);
    const user = { ...testUser, public_key_spki: publicKeySpki };
    const api = withApi({
      'POST /api/auth/prelogin': preloginHandler(TEST_UNBOUND_KDF_PARAMS),
      'POST /api/auth/token': () => ({ status: 200, body: { user } }),
      'GET /api/auth/users/me/encrypted-key': () => ({ status: 200, body: keyData }),
      'POST /api/auth/bind-login': () => ({ status: 200, body: { user } }),
    });
    await signInAs('alice', password);
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/auth/bind-login')).toBe(true), { timeout: 20_000 });

    const bind = JSON.parse(api.requests.find((r) => r.path === '/api/auth/bind-login')!.body);
    expect(Object.keys(bind).sort()).toEqual(['auth_secret', 'new_auth_secret', 'new_kdf_params', 'private_key']);
    expect(bind.auth_secret).toBe(await authSecretOf(password, TEST_UNBOUND_KDF_PARAMS));
    expect(parseAccountKdfParams(bind.new_kdf_params, 'alice')).toMatchObject({ scheme: 3, name: 'alice' });
    expect(bind.new_auth_secret).toBe(await authSecretOf(password, bind.new_kdf_params));
    expect(bind.private_key).toMatchObject({ public_key_spki: publicKeySpki, kdfSalt: bind.new_kdf_params });
    await expect(unwrapPrivateKey(bind.private_key, password)).resolves.toMatchObject({ type: 'private' });
    expect(api.requests.filter((r) => r.body.includes(password))).toEqual([]);
    await waitFor(() => expect(hasSeenBoundBlock('alice')).toBe(true));
  });

  it('with 2FA the move to a bound block follows the code step, with the secret accepted before it', async () => {
    const password = 'correct-horse-1';
    const api = withApi({
      'POST /api/auth/prelogin': preloginHandler(TEST_UNBOUND_KDF_PARAMS),
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { user: { ...testUser, is_2fa_enabled: true } } }),
      'POST /api/auth/bind-login': () => ({ status: 200, body: { user: { ...testUser, is_2fa_enabled: true } } }),
    });
    await signInAs('alice', password);
    expect(await screen.findByLabelText('Authentication Code')).toBeVisible();
    expect(api.requests.some((r) => r.path === '/api/auth/bind-login')).toBe(false);
    typeInto('Authentication Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === '/api/auth/bind-login')).toBe(true), { timeout: 20_000 });
    const bind = JSON.parse(api.requests.find((r) => r.path === '/api/auth/bind-login')!.body);
    expect(bind.auth_secret).toBe(await authSecretOf(password, TEST_UNBOUND_KDF_PARAMS));
    expect(parseAccountKdfParams(bind.new_kdf_params, 'alice')).toMatchObject({ scheme: 3, name: 'alice' });
    expect(api.requests.filter((r) => r.body.includes(password))).toEqual([]);
  });

  it('a sign-in under a bound block sends no move and remembers the name as bound', async () => {
    const api = withApi({ 'POST /api/auth/token': () => ({ status: 200, body: { user: testUser } }) });
    await signInAs('Alice', 'correct-horse-1');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(hasSeenBoundBlock('alice')).toBe(true);
    expect(api.requests.some((r) => r.path === '/api/auth/bind-login')).toBe(false);
  });
});

describe('Login screen: what the server offers', () => {
  it('holds the sign-in choices until the server has said what it offers, then shows them at once', async () => {
    const settings = heldResponse();
    withApi({ 'GET /api/auth/sso': settings.handler });
    renderAppAt('/login', { preloadedState: signedOutState(), cryptoPool: () => pool });
    await screen.findByRole('heading', { name: 'Admin Login' });
    expect(await screen.findByText('Loading authentication status...')).toBeTruthy();
    expect(screen.queryByLabelText('Username')).toBeNull();

    settings.release({ status: 200, body: { sso: { name: 'Example Staff' }, password_sign_in: true } });
    expect(await screen.findByRole('link', { name: 'Sign in with Example Staff' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.queryByText('Loading authentication status...')).toBeNull();
  });

  it('offers the password form when the question fails', async () => {
    withApi({ 'GET /api/auth/sso': () => ({ status: 500, body: { detail: 'boom' } }) });
    renderAppAt('/login', { preloadedState: signedOutState(), cryptoPool: () => pool });
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });
});
