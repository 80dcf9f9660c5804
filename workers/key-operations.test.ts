// The public half of a wrapped private key, recovered inside the worker for restore: it equals the
// SPKI exported when the pair was generated, and only the right password yields it.
import { describe, expect, it } from 'vitest';
import { isCryptoError, encodeKdfParams, exportPublicKeySpki, generateKeyPair, newKdfParams, wrapPrivateKey } from '../crypto/index.ts';
import { createPublicKey } from 'node:crypto';
import { publicKeyOfWrappedPrivateKey } from './key-operations.ts';

describe('publicKeyOfWrappedPrivateKey', () => {
  it('returns the SPKI of the pair the wrapped private key belongs to', async () => {
    const pair = await generateKeyPair();
    const wrapped = await wrapPrivateKey(pair.privateKey, 'login password', encodeKdfParams(newKdfParams(100_000)));
    const spki = await publicKeyOfWrappedPrivateKey(wrapped, 'login password');
    expect(spki).toBe(await exportPublicKeySpki(pair.publicKey));
    const parsed = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
    expect(parsed.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('refuses a wrong password with WRONG_PASSWORD and damaged data with MALFORMED', async () => {
    const pair = await generateKeyPair();
    const wrapped = await wrapPrivateKey(pair.privateKey, 'login password', encodeKdfParams(newKdfParams(100_000)));
    await expect(publicKeyOfWrappedPrivateKey(wrapped, 'other password')).rejects.toSatisfy((error) => isCryptoError(error, 'WRONG_PASSWORD'));
    await expect(publicKeyOfWrappedPrivateKey({ ...wrapped, encryptedPrivateKey: 'AAAA' }, 'login password')).rejects.toSatisfy((error) =>
      isCryptoError(error, 'MALFORMED'),
    );
  });
});
