// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { unwrapPrivateKey } from '../../../crypto/index.ts';
import { makeStore } from '../../app/store.ts';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { isKeyError } from './keyError.ts';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { privateKeyCryptoFailed, privateKeyCleared, selectPrivateKey } from './keysSlice.ts';
import { requirePrivateKey, rewrapPrivateKeyAfterPasswordChange, unlockPrivateKey } from './keyThunks.ts';
import { makeKeyData, testAccountKdfParams } from './testing/keyData.ts';

const KEY_PATH = '/api/auth/users/me/encrypted-key';
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  const pool = inProcessCryptoPool();
  cleanups.push(api.restore, () => pool.terminate());
  const store = makeStore(signedInState());
  return { api, store, pool };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('private-key unlock (spec section 4)', () => {
  it("no key data on the server: 'Encrypted key data not found on server. ...'", async () => {
    const { store, pool } = setup({ [`GET ${KEY_PATH}`]: () => ({ status: 404, body: { detail: 'Encrypted key data not found' } }) });
    const error = await caught(store.dispatch(unlockPrivateKey(pool, 'pw')));
    expect(isKeyError(error, 'key-data-not-found')).toBe(true);
    expect((error as Error).message).toBe('Encrypted key data not found on server. Please generate or restore keys in your profile.');
    expect(selectPrivateKey(store.getState())).toBeNull();
  });

  it("a wrong password: 'Failed to unlock key: Decryption failed: ...'; no password: 'Missing password or key data.'", async () => {
    const { keyData } = await makeKeyData('right password');
    const { store, api, pool } = setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    const wrong = await caught(store.dispatch(unlockPrivateKey(pool, 'wrong password')));
    expect((wrong as Error).message).toBe('Failed to unlock key: Decryption failed: Incorrect password or corrupted data.');
    const empty = await caught(store.dispatch(unlockPrivateKey(pool, '')));
    expect((empty as Error).message).toBe('Missing password or key data.');
    expect(api.requests).toHaveLength(1);
  });

  it('the right password caches the handle; the key is wiped from the worker when the session ends', async () => {
    const { keyData } = await makeKeyData('right password');
    const { store, pool } = setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    expect(() => requirePrivateKey(store.getState())).toThrow('Key not loaded.');
    const handle = await store.dispatch(unlockPrivateKey(pool, 'right password'));
    expect(handle.kind).toBe('private');
    expect(selectPrivateKey(store.getState())).toBe(handle);
    expect(requirePrivateKey(store.getState())).toBe(handle);
    expect(pool.keyLocations(handle)).toHaveLength(1);

    store.dispatch(sessionEnded({ reason: 'logout' }));
    expect(selectPrivateKey(store.getState())).toBeNull();
    // The worker releases the key asynchronously (privateKeyRelease.ts): wait for that, not for a turn.
    await vi.waitFor(() => expect(pool.keyLocations(handle)).toEqual([]));
  });

  it('a crypto error during download, key generation and restore clear the cached key too; a new unlock replaces the old one', async () => {
    const { keyData } = await makeKeyData('pw');
    const { store, pool } = setup({ [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) });
    for (const clear of [privateKeyCryptoFailed(), privateKeyCleared({ reason: 'generated' }), privateKeyCleared({ reason: 'restored' })]) {
      const handle = await store.dispatch(unlockPrivateKey(pool, 'pw'));
      store.dispatch(clear);
      expect(selectPrivateKey(store.getState())).toBeNull();
      await vi.waitFor(() => expect(pool.keyLocations(handle)).toEqual([]));
    }
    const first = await store.dispatch(unlockPrivateKey(pool, 'pw'));
    const second = await store.dispatch(unlockPrivateKey(pool, 'pw'));
    await vi.waitFor(() => expect(pool.keyLocations(first)).toEqual([]));
    expect(pool.keyLocations(second)).toHaveLength(1);
    expect(first.id).not.toBe(second.id);
  });
});

describe('password change re-wraps the private key (spec section 4)', () => {
  const newKdfParams = testAccountKdfParams();
  const context = ({ store, pool }: ReturnType<typeof setup>) => ({ oldPassword: 'old password', newPassword: 'new password', newKdfParams, dispatch: store.dispatch, cryptoPool: () => pool });

  it('no stored key data: nothing to do', async () => {
    const setUp = setup({ [`GET ${KEY_PATH}`]: () => ({ status: 404, body: { detail: 'Encrypted key data not found' } }) });
    await rewrapPrivateKeyAfterPasswordChange(context(setUp));
    expect(setUp.api.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('stored key data is decrypted with the old password, encrypted with the new one and saved; the profile is updated', async () => {
    const { keyData, publicKeySpki } = await makeKeyData('old password');
    const setUp = setup({
      [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }),
      [`PUT ${KEY_PATH}`]: () => ({ status: 200, body: { ...testUser, public_key_spki: publicKeySpki } }),
    });
    const { store, api } = setUp;
    await rewrapPrivateKeyAfterPasswordChange(context(setUp));
    const put = api.requests.find((r) => r.method === 'PUT')!;
    const saved = JSON.parse(put.body);
    expect(Object.keys(saved).sort()).toEqual(['encryptedPrivateKey', 'kdfSalt']);
    // Wrapped under scheme 2 with the account's new block (the old data was scheme 1).
    expect(saved.kdfSalt).toBe(newKdfParams);
    await expect(unwrapPrivateKey(saved, 'new password')).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
    await expect(unwrapPrivateKey(saved, 'old password')).rejects.toThrow();
    expect(store.getState().auth.user?.public_key_spki).toBe(publicKeySpki);
  });

  it('any failure is the persistent re-wrap warning', async () => {
    const { keyData } = await makeKeyData('some other password');
    const cases: Array<Record<string, FakeHandler>> = [
      { [`GET ${KEY_PATH}`]: () => ({ status: 200, body: keyData }) },
      { [`GET ${KEY_PATH}`]: () => ({ status: 500, body: { detail: 'Internal Server Error' } }) },
    ];
    for (const handlers of cases) {
      const error = await caught(rewrapPrivateKeyAfterPasswordChange(context(setup(handlers))));
      expect(isKeyError(error, 'rewrap-failed')).toBe(true);
      expect((error as Error).message).toContain('might be unusable if the old password was wrong');
      for (const cleanup of cleanups.splice(0)) cleanup();
    }
  });
});
