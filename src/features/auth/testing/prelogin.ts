// For jsdom tests of screens that turn a password into its authentication secret: a pre-login
// answer at the default cost (the cheapest a client derives with), bound to the test account's
// name "alice" (scheme 3, what accounts have now), an unbound one (scheme 2, an account not yet
// moved), and the secret a password yields under either, computed with the crypto core (outside
// the code under test).
import { ARGON2_DEFAULT_COST, deriveAccountSecrets, encodeKdfParams, KDF_SCHEME_ARGON2ID, KDF_SCHEME_ARGON2ID_BOUND } from '../../../../crypto/index.ts';
import type { FakeHandler } from '../../../app/testing/fakeApi.ts';

export const TEST_ACCOUNT_NAME = 'alice';

export const TEST_ACCOUNT_KDF_PARAMS: string = encodeKdfParams({
  scheme: KDF_SCHEME_ARGON2ID_BOUND,
  ...ARGON2_DEFAULT_COST,
  salt: new Uint8Array(16).fill(0x11),
  name: TEST_ACCOUNT_NAME,
});

export const TEST_UNBOUND_KDF_PARAMS: string = encodeKdfParams({
  scheme: KDF_SCHEME_ARGON2ID,
  ...ARGON2_DEFAULT_COST,
  salt: new Uint8Array(16).fill(0x11),
});

/** POST /api/auth/prelogin answering `kdfParams` for every name. */
export function preloginHandler(kdfParams: string = TEST_ACCOUNT_KDF_PARAMS): FakeHandler {
  return () => ({ status: 200, body: { kdf_params: kdfParams } });
}

export async function authSecretOf(password: string, kdfParams: string = TEST_ACCOUNT_KDF_PARAMS): Promise<string> {
  return (await deriveAccountSecrets(password, kdfParams, undefined)).authSecret;
}
