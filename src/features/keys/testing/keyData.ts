// Key data for the keys feature's tests, made outside the code under test with the crypto core.
// The tests run that code on a real pool (src/app/testing/testCryptoPool.ts), so what the UI saved
// can be checked to open with the right password.
import { exportPublicKeySpki, generateKeyPair, wrapPrivateKey } from '../../../../crypto/index.ts';

/** Fewer KDF iterations than production, only to keep the tests quick (the minimum the format allows). */
const TEST_ITERATIONS = 100_000;

/** Key data wrapped under `password`, with its public key. */
export async function makeKeyData(password: string) {
  const pair = await generateKeyPair();
  const wrapped = await wrapPrivateKey(pair.privateKey, password, TEST_ITERATIONS);
  return {
    publicKeySpki: await exportPublicKeySpki(pair.publicKey),
    keyData: { encryptedPrivateKey: wrapped.encryptedPrivateKey as string, kdfSalt: wrapped.kdfSalt as string },
  };
}
