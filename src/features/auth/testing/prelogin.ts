// For jsdom tests of screens that turn a password into its authentication secret: a pre-login
// answer at the cheapest cost the format allows (the derivation is the same at any cost), and the
// secret a password yields under it, computed with the crypto core (outside the code under test).
import { ARGON2_LIMITS, deriveAccountSecrets, encodeKdfParams, KDF_SCHEME_ARGON2ID } from '../../../../crypto/index.ts';
import type { FakeHandler } from '../../../app/testing/fakeApi.ts';

export const TEST_ACCOUNT_KDF_PARAMS: string = encodeKdfParams({
  scheme: KDF_SCHEME_ARGON2ID,
  memoryKiB: ARGON2_LIMITS.minMemoryKiB,
  passes: ARGON2_LIMITS.minPasses,
  lanes: 1,
  salt: new Uint8Array(16).fill(0x11),
});

/** POST /api/auth/prelogin answering `kdfParams` for every name. */
export function preloginHandler(kdfParams: string = TEST_ACCOUNT_KDF_PARAMS): FakeHandler {
  return () => ({ status: 200, body: { kdf_params: kdfParams } });
}

export async function authSecretOf(password: string, kdfParams: string = TEST_ACCOUNT_KDF_PARAMS): Promise<string> {
  return (await deriveAccountSecrets(password, kdfParams)).authSecret;
}
