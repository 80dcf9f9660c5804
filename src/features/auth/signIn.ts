// The sign-in's steps under zero-knowledge sign-in (the spec's two steps, section 4, with
// the password step sending the derived authentication secret):
//
//   password step: pre-login, derive the secret in a worker, POST /auth/token with it;
//   an account made before the change answers SIGN_IN_UPGRADE_REQUIRED: then, only for a username
//   that never signed in with its secret on this device (newSignInMemory.ts; otherwise the answer
//   is refused, nothing sent) and only after the person confirms it (submitOldSchemePassword),
//   once, the password itself (the old check), the code step if the account has 2FA, and at once the upgrade: a fresh
//   parameter block, the secret under it, the stored private key re-wrapped under it, all in one
//   call (POST /auth/upgrade-login, atomic on the server). Only then is the session confirmed; if
//   the upgrade fails, this browser signs out and the account stays as it was (old password, old
//   key data), to be upgraded at the next sign-in.
import { isBoundAccountKdfParams, newAccountKdfParams } from '../../../crypto/index.ts';
import type { CryptoPool } from '../../../workers/index.ts';
import { authApi } from '../../api/authApi.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import type { User } from '../../api/types.ts';
import type { AppDispatch } from '../../app/store.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { SIGN_IN_TEXTS } from '../../lib/userTexts.ts';
import { deriveAccountSecret, type AccountSecret } from '../../app/accountSecrets.ts';
import { loginBoundTo, rewrappedPrivateKey } from '../../app/accountRekey.ts';
import { sessionConfirmed } from './authSlice.ts';
import { logout } from './authThunks.ts';
import { interpretCodeStep, interpretPasswordStep } from './loginResponse.ts';
import { hasSignedInWithNewScheme, rememberBoundBlock, rememberNewSignIn } from './newSignInMemory.ts';

export interface SignInDependencies {
  readonly dispatch: AppDispatch;
  readonly pool: Pick<CryptoPool, 'deriveAuthSecret' | 'rewrapPrivateKey'>;
}

export type PasswordStepOutcome =
  /** Signed in (the auth slice has the user). */
  | { readonly kind: 'signed-in'; readonly user: User }
  /**
   * The authenticator code is next; `upgradeFollows`: the account moves to the new scheme after
   * it; `unboundSecret`: the account's block is not bound to its name, bindSignIn follows it.
   */
  | { readonly kind: 'code-required'; readonly username: string; readonly upgradeFollows: boolean; readonly unboundSecret?: AccountSecret }
  /** An account of the old scheme passed the password check: upgradeSignIn is next. */
  | { readonly kind: 'upgrade-required'; readonly user: User }
  /** The server asks for the password itself (old scheme): only submitOldSchemePassword sends it, after the person confirms. */
  | { readonly kind: 'old-scheme-confirmation'; readonly username: string };

export type SignInErrorCode = 'sign-in-upgrade-failed' | 'sign-in-upgrade-refused';

function refuseOldScheme(): never {
  throw new UserFacingError<SignInErrorCode>('sign-in-upgrade-refused', SIGN_IN_TEXTS.upgradeRefused);
}

export async function submitPasswordStep(deps: SignInDependencies, username: string, password: string): Promise<PasswordStepOutcome> {
  const { dispatch, pool } = deps;
  const secret = await deriveAccountSecret(dispatch, pool, username, password);
  try {
    const outcome = interpretPasswordStep(await dispatch(authApi.endpoints.login.initiate({ username, auth_secret: secret.authSecret })).unwrap(), username);
    // The secret was accepted (a session, or the code step after it): this account is past the old scheme.
    rememberNewSignIn(username);
    const bound = isBoundAccountKdfParams(secret.kdfParams);
    if (bound) rememberBoundBlock(username);
    if (outcome.kind !== 'signed-in') return { ...outcome, upgradeFollows: false, ...(bound ? {} : { unboundSecret: secret }) };
    if (!bound) await bindSignIn(deps, outcome.user, password, secret);
    return outcome;
  } catch (error) {
    if (!answeredWith(describeApiError(error), 'SIGN_IN_UPGRADE_REQUIRED')) throw error;
  }
  if (hasSignedInWithNewScheme(username)) refuseOldScheme();
  return { kind: 'old-scheme-confirmation', username };
}

/**
 * The old scheme's sign-in, once the person has confirmed sending the password itself: the last
 * time this account's password is sent, as the upgrade that follows ends the old scheme.
 */
export async function submitOldSchemePassword({ dispatch }: Pick<SignInDependencies, 'dispatch'>, username: string, password: string): Promise<PasswordStepOutcome> {
  if (hasSignedInWithNewScheme(username)) refuseOldScheme();
  const outcome = interpretPasswordStep(await dispatch(authApi.endpoints.loginWithPassword.initiate({ username, password })).unwrap(), username);
  return outcome.kind === 'signed-in' ? { kind: 'upgrade-required', user: outcome.user } : { ...outcome, upgradeFollows: true };
}

/** The code step; with `upgradeFollows` the session is confirmed only by upgradeSignIn. */
export async function submitCodeStep({ dispatch }: Pick<SignInDependencies, 'dispatch'>, username: string, code: string, upgradeFollows: boolean): Promise<User> {
  return interpretCodeStep(await dispatch(authApi.endpoints.loginWithCode.initiate({ username, code, upgradeFollows })).unwrap());
}



/**
 * Moves a signed-in account whose block is not bound to its name to a fresh block bound to it:
 * one extra derivation, once per account. Best effort: a failure leaves the account as it was
 * (the server stores all or nothing) and the next sign-in tries again; the session stays.
 */
export async function bindSignIn(deps: SignInDependencies, user: User, password: string, current: AccountSecret): Promise<void> {
  try {
    const rekeyed = await loginBoundTo(deps, user, password, user.username);
    await deps.dispatch(authApi.endpoints.bindLogin.initiate({ auth_secret: current.authSecret, ...rekeyed })).unwrap();
    rememberBoundBlock(user.username);
  } catch {
    // Stays on its unbound block until the next sign-in; nothing to tell the person.
  }
}

/**
 * Moves the signed-in account of the old scheme to the new one and confirms the session. On any
 * failure this browser signs out (the server rolled the move back) and a UserFacingError
 * 'sign-in-upgrade-failed' says so.
 */
export async function upgradeSignIn(deps: SignInDependencies, user: User, password: string): Promise<User> {
  const { dispatch, pool } = deps;
  try {
    const kdfParams = newAccountKdfParams(user.username);
    const authSecret = await pool.deriveAuthSecret(password, kdfParams, user.username);
    const privateKey = await rewrappedPrivateKey(deps, user, password, kdfParams);
    const { user: upgraded } = await dispatch(
      authApi.endpoints.upgradeLogin.initiate({ password, auth_secret: authSecret, kdf_params: kdfParams, ...(privateKey ? { private_key: privateKey } : {}) }),
    ).unwrap();
    rememberNewSignIn(upgraded.username);
    rememberBoundBlock(upgraded.username);
    dispatch(sessionConfirmed(upgraded));
    return upgraded;
  } catch (error) {
    const detail = describeApiError(error).message;
    await dispatch(logout());
    throw new UserFacingError<SignInErrorCode>('sign-in-upgrade-failed', SIGN_IN_TEXTS.upgradeFailed(detail));
  }
}
