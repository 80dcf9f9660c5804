// What the passkey screens do, step by step (docs/api.md "Passkeys"):
//
//   sign-in: options -> navigator.credentials.get() with PRF -> POST sign-in (PRF stripped) -> the
//   session; with a PRF output and the passkey's copy of the private key, a worker opens the copy
//   (bound to the credential id the browser itself used, so a copy of another passkey is refused)
//   and the key is cached for the session as after a password unlock;
//
//   confirm (re-authentication): the password's secret, or a passkey's assertion (whose PRF output
//   and copy can then give a new passkey its copy without the password);
//
//   unlock after a single sign-on (/sso): a confirmation with a passkey whose copy the worker opens
//   with the PRF output, checked against the account's public key;
//
//   add: options -> create() with PRF (one more get() when the authenticator evaluates PRF only at
//   assertion time) -> a worker wraps the private key for it -> POST with the copy.
//
// PRF outputs are transferred to the worker (this thread's buffer is detached) or zeroed here.
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { CryptoPool, PasskeyKeySource, PrivateKeyHandle } from '../../../workers/index.ts';
import { isCryptoError } from '../../../workers/index.ts';
import { passkeysApi } from '../../api/passkeysApi.ts';
import type { User } from '../../api/types.ts';
import type { AppDispatch } from '../../app/store.ts';
import { CRYPTO_ERROR_TEXTS, PASSKEY_TEXTS } from '../../lib/userTexts.ts';
import { sessionConfirmed } from '../auth/index.ts';
import { adoptPrivateKey, fetchStoredKeyData } from '../keys/index.ts';
import { createCredential, getAssertion, prfOutputOf } from './webauthn.ts';

export type PasskeyPool = Pick<CryptoPool, 'unlockPrivateKeyWithPasskey' | 'wrapPrivateKeyForPasskey' | 'releaseKey'>;

export interface PasskeyDependencies {
  readonly dispatch: AppDispatch;
  readonly pool: () => PasskeyPool;
}

function forget(buffer: ArrayBuffer | null): void {
  // A transferred buffer is detached (length 0): nothing left to zero.
  if (buffer && buffer.byteLength > 0) new Uint8Array(buffer).fill(0);
}

export type PasskeySignInOutcome =
  | { readonly kind: 'unlocked'; readonly user: User }
  /** Signed in; the keys stay locked: `reason` says why (no PRF, no copy, the copy did not open). */
  | { readonly kind: 'signed-in'; readonly user: User; readonly reason: string };

export async function signInWithPasskey({ dispatch, pool }: PasskeyDependencies): Promise<PasskeySignInOutcome> {
  const { options } = await dispatch(passkeysApi.endpoints.passkeySignInOptions.initiate()).unwrap();
  const { response, prfOutput } = await getAssertion(options);
  try {
    const answer = await dispatch(passkeysApi.endpoints.passkeySignIn.initiate({ response: response as never })).unwrap();
    dispatch(sessionConfirmed(answer.user));
    const copy = answer.wrapped_private_key;
    if (!copy || !prfOutput) return { kind: 'signed-in', user: answer.user, reason: PASSKEY_TEXTS.signInOnlyNotice };
    try {
      const keyPool = pool();
      // The id the browser used, not the one the server named: the copy must be this credential's.
      const handle = await keyPool.unlockPrivateKeyWithPasskey(copy.encryptedPrivateKey, prfOutput, response.rawId);
      dispatch(adoptPrivateKey(keyPool, handle));
      return { kind: 'unlocked', user: answer.user };
    } catch (error) {
      const reason = isCryptoError(error) ? CRYPTO_ERROR_TEXTS[error.code] : String(error instanceof Error ? error.name : error);
      return { kind: 'signed-in', user: answer.user, reason: PASSKEY_TEXTS.unlockFailed(reason) };
    }
  } finally {
    forget(prfOutput);
  }
}

/** Opening the key with a passkey after a single sign-on: why it could not, when it could not. */
export type PasskeyUnlockOutcome =
  | { readonly kind: 'unlocked'; readonly privateKey: PrivateKeyHandle }
  /** The authenticator gave no PRF output (no PRF support): this passkey cannot open a copy. */
  | { readonly kind: 'no-prf' }
  /** The server answered no copy: the passkey has none, or one of an older key pair. */
  | { readonly kind: 'no-copy' };

/**
 * An account without a password, on /sso: a passkey assertion as a re-authentication of this
 * session (`POST /auth/reauth`), whose answer carries the passkey's copy; the worker opens it with
 * the PRF output and checks it is the account's key pair (`expectedSpki`), and the key is kept for
 * the session. The credential id is the one the browser used, not one the server names.
 */
export async function unlockWithPasskey(
  { dispatch, pool }: { readonly dispatch: AppDispatch; readonly pool: () => Pick<PasskeyPool, 'unlockPrivateKeyWithPasskey' | 'releaseKey'> },
  expectedSpki: string,
): Promise<PasskeyUnlockOutcome> {
  const { options } = await dispatch(passkeysApi.endpoints.passkeyReauthOptions.initiate()).unwrap();
  const { response, prfOutput } = await getAssertion(options);
  try {
    const answer = await dispatch(passkeysApi.endpoints.reauthenticate.initiate({ response: response as AuthenticationResponseJSON as never })).unwrap();
    if (!prfOutput) return { kind: 'no-prf' };
    const copy = answer.wrapped_private_key;
    if (!copy) return { kind: 'no-copy' };
    const keyPool = pool();
    const privateKey = await keyPool.unlockPrivateKeyWithPasskey(copy.encryptedPrivateKey, prfOutput, response.rawId, expectedSpki);
    dispatch(adoptPrivateKey(keyPool, privateKey));
    return { kind: 'unlocked', privateKey };
  } finally {
    forget(prfOutput);
  }
}

/** A confirmation with a passkey: what a new passkey's copy can be made from (if anything). */
export type Confirmation = { readonly keySource: PasskeyKeySource | null };

export async function confirmWithPassword(dispatch: AppDispatch, authSecret: string, password: string): Promise<Confirmation> {
  await dispatch(passkeysApi.endpoints.reauthenticate.initiate({ auth_secret: authSecret })).unwrap();
  const data = await fetchStoredKeyData(dispatch).catch(() => null);
  return { keySource: data ? { kind: 'password', data, password } : null };
}

export async function confirmWithPasskey(dispatch: AppDispatch): Promise<Confirmation> {
  const { options } = await dispatch(passkeysApi.endpoints.passkeyReauthOptions.initiate()).unwrap();
  const { response, prfOutput } = await getAssertion(options);
  let keep = false;
  try {
    const answer = await dispatch(passkeysApi.endpoints.reauthenticate.initiate({ response: response as AuthenticationResponseJSON as never })).unwrap();
    const copy = answer.wrapped_private_key;
    if (!copy || !prfOutput) return { keySource: null };
    keep = true;
    return { keySource: { kind: 'passkey', encryptedPrivateKey: copy.encryptedPrivateKey, prfOutput, credentialId: response.rawId } };
  } finally {
    if (!keep) forget(prfOutput);
  }
}

/** Zeroes a confirmation's PRF output that was not used. */
export function dropConfirmation(confirmation: Confirmation | null): void {
  if (confirmation?.keySource?.kind === 'passkey') forget(confirmation.keySource.prfOutput);
}

export interface AddedPasskey {
  readonly name: string;
  readonly unlocksKeys: boolean;
}

export async function addPasskey(
  { dispatch, pool }: PasskeyDependencies,
  name: string,
  confirmation: Confirmation,
  user: User,
): Promise<AddedPasskey> {
  const { options } = await dispatch(passkeysApi.endpoints.passkeyRegistrationOptions.initiate()).unwrap();
  const created = await createCredential(options);
  let prfOutput = created.prfOutput;
  try {
    const rpId = (options as { rp?: { id?: string } }).rp?.id;
    if (!prfOutput && created.prfEnabled && rpId) prfOutput = await prfOutputOf(created.response.rawId, rpId, created.response.response.transports);
    let wrapped: { encryptedPrivateKey: string; public_key_spki: string } | undefined;
    const source = confirmation.keySource;
    if (prfOutput && source && user.public_key_spki) {
      const copy = await pool().wrapPrivateKeyForPasskey(source, prfOutput, created.response.rawId);
      wrapped = { encryptedPrivateKey: copy, public_key_spki: user.public_key_spki };
    }
    const added = await dispatch(
      passkeysApi.endpoints.registerPasskey.initiate({ name, response: created.response as never, ...(wrapped ? { wrapped_private_key: wrapped } : {}) }),
    ).unwrap();
    return { name: added.name, unlocksKeys: added.unlocks_keys };
  } finally {
    forget(prfOutput);
  }
}
