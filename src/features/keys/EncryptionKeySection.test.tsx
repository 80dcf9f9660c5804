// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../api/types.ts';
import { unwrapPrivateKey } from '../../../crypto/index.ts';
import { AppProviders } from '../../app/AppProviders.tsx';
import { makeStore } from '../../app/store.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import type { CryptoPool } from '../../../workers/index.ts';
import { selectPrivateKey } from './keysSlice.ts';
import { makeKeyData } from './testing/keyData.ts';
import { authSecretOf, preloginHandler, TEST_ACCOUNT_KDF_PARAMS } from '../auth/testing/prelogin.ts';
import { usePrivateKeyUnlock, type PrivateKeyUnlock } from './usePrivateKeyUnlock.tsx';

const KEY_PATH = '/api/auth/users/me/encrypted-key';
const NOT_FOUND = { status: 404, body: { detail: 'Encrypted key data not found' } };
const CLOSE_BLOCKED = 'Please complete all steps (upload, save, download) before closing.';

let cleanups: Array<() => void> = [];
afterEach(() => {
  cleanup();
  for (const undo of cleanups.splice(0)) undo();
});

/** The pool of the running test, handed to the app as src/main.tsx hands over the real one. */
let pool: CryptoPool;
const cryptoPool = () => pool;

function setup(handlers: Record<string, FakeHandler>) {
  // Re-entered passwords start with the pre-login (the account's KDF parameters).
  const api = installFakeApi({ 'POST /api/auth/prelogin': preloginHandler(), ...handlers });
  const created = inProcessCryptoPool();
  pool = created;
  cleanups.push(api.restore, () => created.terminate());
  return { api, pool: created };
}

async function openKeySection(user: User = testUser) {
  const rendered = renderAppAt('/profile', { preloadedState: signedInState(user), cryptoPool });
  await screen.findByRole('heading', { name: 'My Profile & Settings' });
  return { ...rendered, section: within(screen.getByRole('region', { name: 'End-to-End Encryption Key' })) };
}

function type(scope: ReturnType<typeof within>, label: string, value: string) {
  fireEvent.change(scope.getByLabelText(label), { target: { value } });
}

describe('key storage status box', () => {
  it('stored', async () => {
    const { keyData } = await makeKeyData('pw');
    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    const { section } = await openKeySection();
    expect(await section.findByText('Your encrypted private key is stored on the server.')).toBeVisible();
    expect(section.getByText('Stored')).toBeVisible();
  });

  it('not stored, with the warning when a public key exists', async () => {
    setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection({ ...testUser, public_key_spki: 'MIIBIjAN' });
    expect(await section.findByText('No encrypted private key is stored on the server.')).toBeVisible();
    expect(section.getByText('Public key without a stored private key')).toBeVisible();
  });

  it('not stored without a public key: no warning', async () => {
    setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection();
    expect(await section.findByText('No encrypted private key is stored on the server.')).toBeVisible();
    expect(section.queryByText('Public key without a stored private key')).toBeNull();
  });

  it('unknown after a server error with a notification; unknown after a 401 without one', async () => {
    // The notification is reported in the same commit that shows the status (both follow the failed
    // check), so the 500 case finds it synchronously right after the status text: that is the
    // signal the 401 case then checks for absence at the same point, with no sleep.
    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 500, body: { detail: 'database down' } }) });
    const failed = await openKeySection();
    expect(await failed.section.findByText('Key storage status unknown.')).toBeVisible();
    expect(screen.getByText('Server Error: database down', { selector: '.notification-message' })).toBeVisible();
    cleanup();

    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 401, body: { detail: 'Unauthorized' } }) });
    const unauthorized = await openKeySection();
    expect(await unauthorized.section.findByText('Key storage status unknown.')).toBeVisible();
    expect(screen.queryByText('Unauthorized', { selector: '.notification-message' })).toBeNull();
    expect(document.querySelector('.notification-message')).toBeNull();
  });
});

describe('generate a new key pair', () => {
  it('needs the password; cancelling the confirmation says so', async () => {
    const { api } = setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection();
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    expect(await section.findByText('Password required to generate and encrypt keys.')).toBeVisible();
    type(section, 'Login Password', 'pw');
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    const confirm = await screen.findByRole('dialog', { name: 'Generate a new key pair?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await section.findByText('Key generation cancelled.')).toBeVisible();
    expect(api.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('a wrong password is refused by the server before generating', async () => {
    setup({
      [`GET ${KEY_PATH}`]: () => NOT_FOUND,
      'POST /api/auth/verify-password': () => ({ status: 401, body: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } }),
    });
    const { section } = await openKeySection();
    type(section, 'Login Password', 'wrong');
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Generate a new key pair?' })).getByRole('button', { name: 'Generate New Keys' }));
    expect(await section.findByText('Key generation process failed: Incorrect password provided.')).toBeVisible();
  });

  it('the modal: three steps in order, close blocked with its title until all are done, then Done (Close)', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:backup';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    cleanups.push(() => clicks.mockRestore());
    let stored: { encryptedPrivateKey: string; kdfSalt: string } | null = null;
    let publicKey: string | null = null;
    const { api } = setup({
      [`GET ${KEY_PATH}`]: () => (stored ? { status: 200, body: stored } : NOT_FOUND),
      'POST /api/auth/verify-password': () => ({ status: 200, body: { verified: true } }),
      'PUT /api/auth/public-key': (request) => {
        publicKey = JSON.parse(request.body).public_key_spki;
        return { status: 200, body: { ...testUser, public_key_spki: publicKey } };
      },
      [`PUT ${KEY_PATH}`]: (request) => {
        stored = JSON.parse(request.body);
        return { status: 200, body: { ...testUser, public_key_spki: publicKey } };
      },
    });
    const { section, store } = await openKeySection();
    type(section, 'Login Password', 'login password');
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Generate a new key pair?' })).getByRole('button', { name: 'Generate New Keys' }));

    const modal = within(await screen.findByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' }, { timeout: 10_000 }));
    const close = modal.getByRole('button', { name: 'Close' }) as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    expect(close.title).toBe(CLOSE_BLOCKED);
    expect((modal.getByRole('button', { name: 'Save Key Data' }) as HTMLButtonElement).disabled).toBe(true);
    expect(modal.getByText('Required')).toBeVisible();

    fireEvent.click(modal.getByRole('button', { name: 'Upload Public Key' }));
    const uploaded = await modal.findByRole('button', { name: 'Uploaded ✓' });
    expect(uploaded).toBeVisible();
    expect(uploaded, 'the public key is uploaded once').toBeDisabled();
    expect(modal.getByRole('button', { name: 'Save Key Data' }), 'saving follows the upload').toBeEnabled();
    expect(store.getState().auth.user?.public_key_spki).toBe(publicKey);
    fireEvent.click(modal.getByRole('button', { name: 'Save Key Data' }));
    const saved = await modal.findByRole('button', { name: 'Saved ✓' });
    expect(saved).toBeVisible();
    expect(saved, 'the key data is saved once').toBeDisabled();
    expect(close.disabled).toBe(true);

    fireEvent.click(modal.getByRole('button', { name: 'Download Backup (.json)' }));
    expect(modal.getByRole('button', { name: 'Download Again?' })).toBeVisible();
    expect(modal.getByRole('button', { name: 'Download Again?' })).toBeEnabled();
    const backup = JSON.parse(await created[0]!.text());
    expect(backup).toMatchObject({ username: 'alice', ...stored! });
    // The new key is wrapped under the account's own block (scheme 2); the password was checked by its secret only.
    expect(stored!.kdfSalt).toBe(TEST_ACCOUNT_KDF_PARAMS);
    const verify = api.requests.find((r) => r.path === '/api/auth/verify-password')!;
    expect(JSON.parse(verify.body)).toEqual({ auth_secret: await authSecretOf('login password') });
    expect(api.requests.filter((r) => r.body.includes('login password'))).toEqual([]);
    await expect(unwrapPrivateKey(backup, 'login password')).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });

    const done = modal.getByRole('button', { name: 'Done (Close)' }) as HTMLButtonElement;
    expect(done.disabled).toBe(false);
    expect(done.title).toBe('');
    const before = api.requests.length;
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' })).toBeNull());
    // Closing refetches the status.
    await waitFor(() => expect(api.requests.slice(before).some((r) => r.method === 'GET' && r.path === KEY_PATH)).toBe(true));
    expect(await section.findByText('Your encrypted private key is stored on the server.')).toBeVisible();
  });
});

describe("'Login Password Required'", () => {
  it('entering -> error -> Try Again -> keyLoaded -> Continue; the handle is cached', async () => {
    const { keyData } = await makeKeyData('right password');
    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    const { section, store } = await openKeySection();
    fireEvent.click(await section.findByRole('button', { name: 'Unlock Private Key' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Login Password Required' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    expect(await dialog.findByText('Unlock requires a non-empty password.')).toBeVisible();
    type(dialog, 'Login Password', 'wrong password');
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    expect(await dialog.findByText('Failed to unlock key: Decryption failed: Incorrect password or corrupted data.')).toBeVisible();
    fireEvent.click(dialog.getByRole('button', { name: 'Try Again' }));
    type(dialog, 'Login Password', 'right password');
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    expect(await dialog.findByText('Private key unlocked.')).toBeVisible();
    fireEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(pool.keyLocations(selectPrivateKey(store.getState())!)).toHaveLength(1);
    const lock = await section.findByRole('button', { name: 'Lock Private Key' });
    expect(lock).toBeVisible();
    expect(lock).toBeEnabled();
  });

  it('usePrivateKeyUnlock: prompts when locked (null on Cancel, the handle on Continue), answers at once when unlocked', async () => {
    const { keyData } = await makeKeyData('pw');
    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    const store = makeStore(signedInState());
    let unlock: PrivateKeyUnlock | null = null;
    function Probe() {
      unlock = usePrivateKeyUnlock();
      return <>{unlock.unlockDialog}</>;
    }
    render(
      <AppProviders store={store} cryptoPool={cryptoPool}>
        <Probe />
      </AppProviders>,
    );
    let cancelled: Promise<unknown> = Promise.resolve();
    act(() => {
      cancelled = unlock!.requestPrivateKey();
    });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Login Password Required' })).getByRole('button', { name: 'Cancel' }));
    expect(await cancelled).toBeNull();

    let granted: Promise<unknown> = Promise.resolve();
    act(() => {
      granted = unlock!.requestPrivateKey();
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Login Password Required' }));
    type(dialog, 'Login Password', 'pw');
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Continue' }));
    const handle = (await granted) as { id: string; kind: string };
    expect(handle).toMatchObject({ kind: 'private' });
    expect(handle).toBe(selectPrivateKey(store.getState()));
    await expect(unlock!.requestPrivateKey()).resolves.toEqual(handle);
  });
});

describe('password change with stored keys', () => {
  it('a failed re-wrap leaves a persistent warning (the password itself did change)', async () => {
    const { keyData } = await makeKeyData('a different password');
    setup({
      [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }),
      'POST /api/auth/change-password': () => ({ status: 200, body: { detail: 'Password changed' } }),
    });
    renderAppAt('/profile', { preloadedState: signedInState(), cryptoPool });
    const section = within(await screen.findByRole('region', { name: 'Change Login Password' }));
    type(section, 'Old Password', 'old-pass-1');
    type(section, 'New Password', 'new-pass-1');
    type(section, 'Confirm New Password', 'new-pass-1');
    fireEvent.click(section.getByRole('button', { name: 'Change Password' }));
    const warnings = await screen.findAllByText(/could not be re-encrypted with the new password/, {}, { timeout: 30_000 });
    expect(warnings.length).toBe(2); // inline and as a notification
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeEnabled();
    expect((section.getByLabelText('Old Password') as HTMLInputElement).value).toBe('');
  });
});
