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
  const api = installFakeApi(handlers);
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
    expect(await section.findByText('Your encrypted private key is stored on the server.')).toBeTruthy();
    expect(section.getByText('Stored')).toBeTruthy();
  });

  it('not stored, with the warning when a public key exists', async () => {
    setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection({ ...testUser, public_key_spki: 'MIIBIjAN' });
    expect(await section.findByText('No encrypted private key is stored on the server.')).toBeTruthy();
    expect(section.getByText('Public key without a stored private key')).toBeTruthy();
  });

  it('not stored without a public key: no warning', async () => {
    setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection();
    expect(await section.findByText('No encrypted private key is stored on the server.')).toBeTruthy();
    expect(section.queryByText('Public key without a stored private key')).toBeNull();
  });

  it('unknown after a 401 without a notification; unknown after a server error with one', async () => {
    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 401, body: { detail: 'Unauthorized' } }) });
    const first = await openKeySection();
    expect(await first.section.findByText('Key storage status unknown.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Unauthorized', { selector: '#notistack-snackbar' })).toBeNull();
    cleanup();

    setup({ [`GET ${KEY_PATH}`]: () => ({ status: 500, body: { detail: 'database down' } }) });
    const second = await openKeySection();
    expect(await second.section.findByText('Key storage status unknown.')).toBeTruthy();
    expect(await screen.findByText('Server Error: database down', { selector: '#notistack-snackbar' })).toBeTruthy();
  });
});

describe('generate a new key pair', () => {
  it('needs the password; cancelling the confirmation says so', async () => {
    const { api } = setup({ [`GET ${KEY_PATH}`]: () => NOT_FOUND });
    const { section } = await openKeySection();
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    expect(await section.findByText('Password required to generate and encrypt keys.')).toBeTruthy();
    type(section, 'Login Password', 'pw');
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    const confirm = await screen.findByRole('dialog', { name: 'Generate a new key pair?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await section.findByText('Key generation cancelled.')).toBeTruthy();
    expect(api.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('a wrong password is refused by the server before generating', async () => {
    setup({
      [`GET ${KEY_PATH}`]: () => NOT_FOUND,
      'POST /api/auth/verify-password': () => ({ status: 401, body: { detail: 'Incorrect password' } }),
    });
    const { section } = await openKeySection();
    type(section, 'Login Password', 'wrong');
    fireEvent.click(section.getByRole('button', { name: 'Generate New Key Pair' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Generate a new key pair?' })).getByRole('button', { name: 'Generate New Keys' }));
    expect(await section.findByText('Key generation process failed: Incorrect password provided.')).toBeTruthy();
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
    expect(modal.getByText('Required')).toBeTruthy();

    fireEvent.click(modal.getByRole('button', { name: 'Upload Public Key' }));
    expect(await modal.findByRole('button', { name: 'Uploaded ✓' })).toBeTruthy();
    expect(store.getState().auth.user?.public_key_spki).toBe(publicKey);
    fireEvent.click(modal.getByRole('button', { name: 'Save Key Data' }));
    expect(await modal.findByRole('button', { name: 'Saved ✓' })).toBeTruthy();
    expect(close.disabled).toBe(true);

    fireEvent.click(modal.getByRole('button', { name: 'Download Backup (.json)' }));
    expect(modal.getByRole('button', { name: 'Download Again?' })).toBeTruthy();
    const backup = JSON.parse(await created[0]!.text());
    expect(backup).toMatchObject({ username: 'alice', ...stored! });
    await expect(unwrapPrivateKey(backup, 'login password')).resolves.toBeDefined();

    const done = modal.getByRole('button', { name: 'Done (Close)' }) as HTMLButtonElement;
    expect(done.disabled).toBe(false);
    expect(done.title).toBe('');
    const before = api.requests.length;
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Key Pair Generated - Actions Required!' })).toBeNull());
    // Closing refetches the status.
    await waitFor(() => expect(api.requests.slice(before).some((r) => r.method === 'GET' && r.path === KEY_PATH)).toBe(true));
    expect(await section.findByText('Your encrypted private key is stored on the server.')).toBeTruthy();
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
    expect(await dialog.findByText('Unlock requires a non-empty password.')).toBeTruthy();
    type(dialog, 'Login Password', 'wrong password');
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    expect(await dialog.findByText('Failed to unlock key: Decryption failed: Incorrect password or corrupted data.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Try Again' }));
    type(dialog, 'Login Password', 'right password');
    fireEvent.click(dialog.getByRole('button', { name: 'Unlock' }));
    expect(await dialog.findByText('Private key unlocked.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(pool.keyLocations(selectPrivateKey(store.getState())!)).toHaveLength(1);
    expect(await section.findByRole('button', { name: 'Lock Private Key' })).toBeTruthy();
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
    const warnings = await screen.findAllByText(/could not be re-encrypted with the new password/, {}, { timeout: 10_000 });
    expect(warnings.length).toBe(2); // inline and as a notification
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    expect((section.getByLabelText('Old Password') as HTMLInputElement).value).toBe('');
  });
});
