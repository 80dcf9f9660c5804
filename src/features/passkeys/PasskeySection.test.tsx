// @vitest-environment jsdom
// The profile's passkeys for an account made by single sign-on (no password): shown, worded for
// it, and confirmed without a password field: Continue runs the action at once (the server takes
// it within five minutes of a sign-in at the provider), and a refusal offers the two ways to confirm.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';

// The profile's Devices section reads this browser's trust record from IndexedDB, which jsdom lacks.
vi.mock('../sso/deviceStore.ts', () => ({
  readDevice: async () => null,
  saveDevice: async () => undefined,
  forgetDevice: async () => undefined,
  thisDeviceName: () => 'Test browser',
}));

const pool = inProcessCryptoPool();
afterAll(() => pool.terminate());

let restore = () => {};
beforeEach(() => {
  // jsdom has no WebAuthn: the section hides itself without it.
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});
afterEach(() => {
  cleanup();
  restore();
  vi.unstubAllGlobals();
});

const ssoUser = { ...testUser, has_password: false, public_key_spki: 'AAAA', org_role: 'member' as const };
const passkey = { id: 7, name: 'Old key', created_at: '2026-11-20T10:00:00.000Z', last_used_at: null, unlocks_keys: false };

function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET /api/auth/passkeys': () => ({ status: 200, body: { passkeys: [passkey] } }),
    'GET /api/auth/sso': () => ({ status: 200, body: { sso: { name: 'Example Staff' }, password_sign_in: true } }),
    'GET /api/auth/devices': () => ({ status: 200, body: { devices: [] } }),
    'GET /api/auth/device-approvals': () => ({ status: 200, body: { approvals: [] } }),
    'GET /api/auth/webhook': () => ({ status: 200, body: { endpoint: null, deliveries: [] } }),
    ...handlers,
  });
  restore = () => {
    api.restore();
  };
  return api;
}

async function passkeySection() {
  renderAppAt('/profile', { preloadedState: signedInState(ssoUser), cryptoPool: () => pool });
  const region = await screen.findByRole('region', { name: 'Passkeys' });
  await within(region).findByText('Old key');
  return within(region);
}

describe('Passkeys of an account without a password', () => {
  it('are shown with words for single sign-on, and a refused Continue names the ways to confirm', async () => {
    let answers = 0;
    const api = withApi({
      'PATCH /api/auth/passkeys/7': () =>
        ++answers === 1
          ? { status: 403, body: { detail: 'Confirm with your password or a passkey first.', code: 'PASSKEY_REAUTH_REQUIRED' } }
          : { status: 200, body: { ...passkey, name: 'Desk key' } },
    });
    const section = await passkeySection();
    expect(await section.findByText(/After you sign in with Example Staff, a passkey/)).toBeVisible();
    expect(section.getByText('Confirms only')).toBeVisible();

    fireEvent.click(section.getByRole('button', { name: 'Rename Old key' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename passkey' }));
    expect(dialog.queryByLabelText('Login password')).toBeNull();
    expect(dialog.getByRole('link', { name: 'Sign in again with Example Staff' }).getAttribute('href')).toBe('/api/auth/sso/start?next=%2Fprofile');
    // The account has a passkey: it can confirm with it too.
    expect(dialog.getByRole('button', { name: 'Use an existing passkey' })).toBeVisible();

    fireEvent.change(dialog.getByLabelText(/Passkey name/), { target: { value: 'Desk key' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Please confirm it is you first: use a passkey you already have, or sign in again with Example Staff.')).toBeVisible();
    // Within five minutes of a sign-in at the provider the same Save goes through, without /auth/reauth.
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename passkey' })).toBeNull());
    expect(api.requests.filter((request) => request.path === '/api/auth/reauth')).toEqual([]);
    expect(api.requests.filter((request) => request.method === 'PATCH').map((request) => JSON.parse(request.body))).toEqual([{ name: 'Desk key' }, { name: 'Desk key' }]);
  });
});
