// The signed-in account's login re-keyed to a fresh parameter block (docs/format.md, "Login key
// derivation"): the secret of the password under it, and the stored private key re-wrapped under
// it. Used by the sign-in's moves (features/auth/signIn.ts) and by a rename (the profile), whose
// block must be bound to the new name. In the app shell because both features need it.
import { isCryptoError, newAccountKdfParams, type CryptoPool } from '../../workers/index.ts';
import { answeredWith, describeApiError } from '../api/errors.ts';
import { keysApi } from '../api/keysApi.ts';
import type { User } from '../api/types.ts';
import type { AppDispatch } from './store.ts';

export interface RekeyDependencies {
  readonly dispatch: AppDispatch;
  readonly pool: Pick<CryptoPool, 'deriveAuthSecret' | 'rewrapPrivateKey'>;
}

/** The private key re-wrapped under the new block, or null when there is none or it does not open with this password. */
export async function rewrappedPrivateKey({ dispatch, pool }: RekeyDependencies, user: User, password: string, kdfParams: string) {
  if (!user.public_key_spki) return null;
  const stored = await dispatch(keysApi.endpoints.getEncryptedKey.initiate(undefined, { forceRefetch: true, subscribe: false }));
  if (!stored.data) {
    if (answeredWith(describeApiError(stored.error), 'ENCRYPTED_KEY_NOT_FOUND', 404)) return null;
    throw stored.error;
  }
  try {
    const { encryptedPrivateKey, kdfSalt } = await pool.rewrapPrivateKey(stored.data, password, password, kdfParams);
    return { public_key_spki: user.public_key_spki, encryptedPrivateKey, kdfSalt };
  } catch (error) {
    // Key data wrapped under an older password (a re-wrap that failed long ago) stays as it is:
    // it opens with that password, as before.
    if (isCryptoError(error, 'WRONG_PASSWORD')) return null;
    throw error;
  }
}

/**
 * The signed-in account's login re-keyed to a fresh block bound to `name` (its own, or a new one
 * it is renamed to): the secret of `password` under it and the private key re-wrapped under it.
 */
export async function loginBoundTo(deps: RekeyDependencies, user: User, password: string, name: string) {
  const kdfParams = newAccountKdfParams(name);
  const newAuthSecret = await deps.pool.deriveAuthSecret(password, kdfParams, name);
  const privateKey = await rewrappedPrivateKey(deps, user, password, kdfParams);
  return { new_auth_secret: newAuthSecret, new_kdf_params: kdfParams as string, ...(privateKey ? { private_key: privateKey } : {}) };
}
