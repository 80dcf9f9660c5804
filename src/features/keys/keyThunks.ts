// Key actions that talk to the server and the worker pool: read the stored key data, unlock the
// private key for the session, and re-wrap it after a password change. Errors come out as
// KeyError with the spec's exact texts (section 8, "Keys").

import { answeredWith, describeApiError } from '../../api/errors.ts';
import { keysApi } from '../../api/keysApi.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { sessionConfirmed } from '../auth/index.ts';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import type { KeyData } from './backupFile.ts';
import { KEY_MESSAGES, rewrapFailedMessage, unlockFailedMessage } from '../../lib/userTexts.ts';
import { KeyError, keyOperationFailureText } from './keyError.ts';
import type { KeyPool } from './keyPool.ts';
import { privateKeyUnlocked, selectPrivateKey } from './keysSlice.ts';
import { releaseWhenDropped } from './privateKeyRelease.ts';

export type KeysThunk<R> = (dispatch: AppDispatch, getState: () => RootState) => R;

const describe = (error: unknown) => describeApiError(error).message;

/** The stored key data, or null when the server has none (404); other failures are thrown as they came. */
export async function fetchStoredKeyData(dispatch: AppDispatch): Promise<KeyData | null> {
  const result = await dispatch(keysApi.endpoints.getEncryptedKey.initiate(undefined, { forceRefetch: true, subscribe: false }));
  if (result.data) return { encryptedPrivateKey: result.data.encryptedPrivateKey, kdfSalt: result.data.kdfSalt };
  if (answeredWith(describeApiError(result.error), 'ENCRYPTED_KEY_NOT_FOUND', 404)) return null;
  throw result.error;
}

/**
 * 'Login Password Required': fetches the stored key data, opens it in `pool` with the login
 * password and caches the pool's handle for the session. Resolves with the handle.
 */
export const unlockPrivateKey =
  (pool: KeyPool, password: string): KeysThunk<Promise<PrivateKeyHandle>> =>
  async (dispatch) => {
    if (!password) throw new KeyError('missing-password-or-key-data', KEY_MESSAGES.missingPasswordOrKeyData);
    let data: KeyData | null;
    try {
      data = await fetchStoredKeyData(dispatch);
    } catch (error) {
      throw new KeyError('unlock-failed', unlockFailedMessage(describe(error)));
    }
    if (!data) throw new KeyError('key-data-not-found', KEY_MESSAGES.keyDataNotFound);
    if (!data.encryptedPrivateKey || !data.kdfSalt) throw new KeyError('missing-password-or-key-data', KEY_MESSAGES.missingPasswordOrKeyData);
    let handle: PrivateKeyHandle;
    try {
      handle = await pool.unlockPrivateKey(data, password);
    } catch (error) {
      throw new KeyError('unlock-failed', unlockFailedMessage(keyOperationFailureText(error, describe)));
    }
    // Wipes the key from the workers once the slice lets go of it (privateKeyRelease.ts).
    dispatch(releaseWhenDropped(pool, handle));
    dispatch(privateKeyUnlocked({ handle }));
    return handle;
  };

/**
 * A private key another feature unlocked in `pool` (a passkey's copy at sign-in): cached for the
 * session like a password unlock, and wiped from the workers once the slice lets go of it.
 */
export const adoptPrivateKey =
  (pool: Pick<KeyPool, 'releaseKey'>, handle: PrivateKeyHandle): KeysThunk<void> =>
  (dispatch) => {
    dispatch(releaseWhenDropped(pool, handle));
    dispatch(privateKeyUnlocked({ handle }));
  };

/** The cached handle, or KeyError 'Key not loaded.' (callers unlock first). */
export function requirePrivateKey(state: RootState): PrivateKeyHandle {
  const handle = selectPrivateKey(state);
  if (!handle) throw new KeyError('key-not-loaded', KEY_MESSAGES.keyNotLoaded);
  return handle;
}

const rewrapFailed = (reason: string) => new KeyError('rewrap-failed', rewrapFailedMessage(reason));

/**
 * Spec section 4, Password change, after the server accepted the new password: fetch the stored
 * key data; none: done; else decrypt with the old password, encrypt with the new one, save it and
 * update the profile. Any failure is 'rewrap-failed' (the persistent warning of section 8), since
 * the server may now hold key data that only the old password opens.
 */
export interface PasswordChange {
  readonly oldPassword: string;
  readonly newPassword: string;
  /** The account's new parameter block (sent with the password change): the key is wrapped under it. */
  readonly newKdfParams: string;
  readonly dispatch: AppDispatch;
  /** The app's pool, asked for only when there is key data to re-wrap. */
  readonly cryptoPool: () => Pick<KeyPool, 'rewrapPrivateKey'>;
}

/** The keys feature's step after a password change (run by profile/afterPasswordChanged.ts). */
export async function rewrapPrivateKeyAfterPasswordChange({ oldPassword, newPassword, newKdfParams, dispatch, cryptoPool }: PasswordChange): Promise<void> {
  let data: KeyData | null;
  try {
    data = await fetchStoredKeyData(dispatch);
  } catch (error) {
    throw rewrapFailed(describe(error));
  }
  if (!data) return;
  let rewrapped: KeyData | null = null;
  try {
    const { encryptedPrivateKey, kdfSalt } = await cryptoPool().rewrapPrivateKey(data, oldPassword, newPassword, newKdfParams);
    rewrapped = { encryptedPrivateKey, kdfSalt };
  } catch (error) {
    throw rewrapFailed(keyOperationFailureText(error, describe));
  }
  try {
    const user = await dispatch(keysApi.endpoints.saveEncryptedKey.initiate(rewrapped)).unwrap();
    dispatch(sessionConfirmed(user));
  } catch (error) {
    throw rewrapFailed(describe(error));
  } finally {
    rewrapped = null;
  }
}
