// Zero-knowledge sign-in on the page's side (docs/security.md, docs/api.md "Pre-login"): the login
// password never goes to the server. Wherever it is asked for (sign-in, re-entered password,
// password change, profile save, disabling 2FA) the page fetches the account's KDF parameters
// (pre-login: any name gets an answer) and a crypto worker derives the authentication secret with
// argon2id; only that secret is sent. The private key's wrapping key comes from the same
// derivation inside the worker and never leaves it. In the app shell because the sign-in (auth),
// the keys and the profile all need it.
import { useCallback } from 'react';
import { isBoundAccountKdfParams, isCryptoError, type CryptoPool } from '../../workers/index.ts';
import { authApi } from '../api/authApi.ts';
import { hasSeenBoundBlock, rememberBoundBlock, selectCurrentUser } from '../features/auth/index.ts';
import { UserFacingError } from '../lib/userFacingError.ts';
import { SIGN_IN_TEXTS } from '../lib/userTexts.ts';
import { useCryptoPool } from './cryptoPool.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import type { AppDispatch } from './store.ts';

/** What this module asks of the worker pool. */
export type AuthSecretPool = Pick<CryptoPool, 'deriveAuthSecret'>;
/** base64 of the 32-byte secret (crypto's branded AuthSecret, as the pool returns it). */
type AuthSecret = Awaited<ReturnType<CryptoPool['deriveAuthSecret']>>;

export interface AccountSecret {
  /** SECRET: what the server receives in place of the password. */
  readonly authSecret: AuthSecret;
  /** The account's parameter block it was derived under (not secret); key data is wrapped under it. */
  readonly kdfParams: string;
}

/** The account's KDF parameter block: the pre-login answer for `username`. */
export async function accountKdfParams(dispatch: AppDispatch, username: string): Promise<string> {
  const answer = await dispatch(authApi.endpoints.prelogin.initiate({ username })).unwrap();
  return answer.kdf_params;
}

/**
 * The authentication secret of `password` for `username`: pre-login, then argon2id in a worker.
 * A block below the default cost is refused in the worker before any derivation (KDF_REFUSED), as
 * is one bound to another name (KDF_NAME_MISMATCH); an unbound block for a name this device has
 * seen bound is refused here. Each refusal is told as itself, never retried with another block.
 */
export async function deriveAccountSecret(dispatch: AppDispatch, pool: AuthSecretPool, username: string, password: string): Promise<AccountSecret> {
  const kdfParams = await accountKdfParams(dispatch, username);
  const bound = isBoundAccountKdfParams(kdfParams);
  if (!bound && hasSeenBoundBlock(username)) throw new UserFacingError('kdf-name-refused', SIGN_IN_TEXTS.kdfNameRefused);
  try {
    const authSecret = await pool.deriveAuthSecret(password, kdfParams, username);
    // A name once answered bound (and matching) never has a reason to be answered unbound again.
    if (bound) rememberBoundBlock(username);
    return { authSecret, kdfParams };
  } catch (error) {
    if (isCryptoError(error, 'KDF_REFUSED')) throw new UserFacingError('kdf-refused', SIGN_IN_TEXTS.kdfRefused);
    if (isCryptoError(error, 'KDF_NAME_MISMATCH')) throw new UserFacingError('kdf-name-refused', SIGN_IN_TEXTS.kdfNameRefused);
    throw error;
  }
}

/**
 * For screens of the signed-in admin: turns the re-entered login password into the account's
 * authentication secret (and the block it was derived under).
 */
export function useAccountSecret(): (password: string) => Promise<AccountSecret> {
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const username = useAppSelector(selectCurrentUser)?.username;
  return useCallback(
    (password: string) => {
      if (username === undefined) return Promise.reject(new Error('no signed-in user'));
      return deriveAccountSecret(dispatch, cryptoPool(), username, password);
    },
    [dispatch, cryptoPool, username],
  );
}
