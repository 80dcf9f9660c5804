// Key data for the keys feature's tests, made outside the code under test with the crypto core.
// The tests run that code on a real pool (src/app/testing/testCryptoPool.ts), so what the UI saved
// can be checked to open with the right password.
import { encodeKdfParams, exportPublicKeySpki, generateKeyPair, newArgon2Params, newKdfParams, wrapPrivateKey } from '../../../../crypto/index.ts';

/** Fewer KDF iterations than production, only to keep the tests quick (the minimum the format allows). */
const TEST_ITERATIONS = 100_000;

/** An account's scheme-2 parameter block at the default cost (the cheapest a client derives with). */
export function testAccountKdfParams(): string {
  return encodeKdfParams(newArgon2Params());
}

/**
 * Key data wrapped under `password`, with its public key: under `kdfParams` (an account's scheme-2
 * block) or, without it, under the old scheme 1 as key data made before zero-knowledge sign-in.
 */
export async function makeKeyData(password: string, kdfParams: string = encodeKdfParams(newKdfParams(TEST_ITERATIONS))) {
  const pair = await generateKeyPair();
  const wrapped = await wrapPrivateKey(pair.privateKey, password, kdfParams);
  return {
    publicKeySpki: await exportPublicKeySpki(pair.publicKey),
    keyData: { encryptedPrivateKey: wrapped.encryptedPrivateKey as string, kdfSalt: wrapped.kdfSalt as string },
  };
}
