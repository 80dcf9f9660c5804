// Signing in as the app does (docs/api.md, "Deriving the authentication secret"): the account's
// parameter block from pre-login, the authentication secret derived from the password (the
// password itself never leaves this process), the two-factor code when the account asks for one,
// then the private key fetched wrapped and opened here with the same password.
import type { KeyObject } from 'node:crypto';
import { loginResponse, preloginResponse, userResponse, type User } from '../../contract/auth.ts';
import { encryptedKeyResponse } from '../../contract/keys.ts';
import { deriveAccountSecrets, OfflineCryptoError, unwrapPrivateKey } from '../../server/crypto/index.ts';
import type { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, GateRefusedError } from '../shared/errors.ts';
import type { Prompts } from '../shared/prompts.ts';

export interface SignedInAccount {
  user: User;
  privateKey: KeyObject;
}

function refused(error: unknown): never {
  if (error instanceof ApiRequestError && ['INCORRECT_CREDENTIALS', 'INVALID_TOTP_CODE', 'ACCOUNT_DISABLED', 'RATE_LIMITED', 'SIGN_IN_UPGRADE_REQUIRED'].includes(error.code)) {
    throw new GateRefusedError(error.code, error.detail);
  }
  throw error;
}

export async function signIn(session: ApiSession, username: string, password: string, prompts: Prompts, signal: AbortSignal): Promise<SignedInAccount> {
  // The csrftoken cookie, as the app picks it up on start-up.
  await session.send({ method: 'GET', path: '/api/auth/users/me', signal });
  const { kdf_params: kdfParams } = await session.json(preloginResponse, { method: 'POST', path: '/api/auth/prelogin', json: { username }, signal });
  const secrets = deriveAccountSecrets(password, kdfParams);
  secrets.wrappingKey.fill(0);
  const form = new URLSearchParams({ username, auth_secret: secrets.authSecret }).toString();
  const answer = await session
    .json(loginResponse, { method: 'POST', path: '/api/auth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, signal })
    .catch(refused);
  if (!('user' in answer)) {
    const code = await prompts.line('Two-factor code: ', 'the two-factor code');
    await session.json(loginResponse, { method: 'POST', path: '/api/auth/token/2fa', json: { username, code }, signal }).catch(refused);
  }
  const user = await session.json(userResponse, { method: 'GET', path: '/api/auth/users/me', signal });
  const keyData = await session.json(encryptedKeyResponse, { method: 'GET', path: '/api/auth/users/me/encrypted-key', signal });
  let privateKey: KeyObject;
  try {
    privateKey = unwrapPrivateKey(keyData, password);
  } catch (error) {
    if (error instanceof OfflineCryptoError) throw new GateRefusedError(error.code, `the account's private key does not open with this password (${error.message})`);
    throw error;
  }
  return { user, privateKey };
}
