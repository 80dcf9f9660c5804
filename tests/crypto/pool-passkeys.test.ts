/**
 * The pool's passkey calls with in-process workers (Comlink over a MessageChannel, as in the app):
 * the PRF output is transferred (the caller's buffer is detached, nothing of it stays on the
 * page), a copy made from the password's key data opens with that passkey and unwraps file keys,
 * a new passkey's copy can be made from another passkey's copy, and another credential's copy is
 * WRONG_PASSKEY across the worker boundary.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, wrapFileKey, wrapPrivateKey } from '../../server/crypto/index.ts';
import { CryptoPool } from '../../workers/index.ts';
import { inProcessWorker } from '../../workers/testing/inProcessWorker.ts';
import { expectCryptoError } from './helpers.ts';

let pool: CryptoPool | undefined;
afterEach(() => pool?.terminate());

const prf = () => new Uint8Array(randomBytes(32)).buffer;
const credentialId = () => randomBytes(16).toString('base64url');

describe('CryptoPool passkey calls', () => {
  it('transfers the PRF output, wraps from the password or another passkey, and refuses another credential\'s copy', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const admin = generateRsaKeyPair();
    const keyData = wrapPrivateKey(admin.privateKey, 'login password', 100_000);

    const firstPrf = prf();
    const firstId = credentialId();
    const wrapping = prf();
    const firstCopy = await pool.wrapPrivateKeyForPasskey({ kind: 'password', data: keyData, password: 'login password' }, wrapping, firstId);
    expect(wrapping.byteLength).toBe(0);

    const openingPrf = firstPrf.slice(0);
    // The copy was made with `wrapping`, not `firstPrf`: wrong PRF output.
    await expectCryptoError(pool.unlockPrivateKeyWithPasskey(firstCopy, openingPrf, firstId), 'WRONG_PASSKEY');
    expect(openingPrf.byteLength).toBe(0);

    const secondPrf = prf();
    const secondId = credentialId();
    const kept = secondPrf.slice(0);
    const secondCopy = await pool.wrapPrivateKeyForPasskey({ kind: 'password', data: keyData, password: 'login password' }, secondPrf, secondId);
    const handle = await pool.unlockPrivateKeyWithPasskey(secondCopy, kept.slice(0), secondId);
    const rawKey = randomBytes(32);
    await expect(pool.unwrapFileKey(handle, wrapFileKey(admin.publicKeySpki, rawKey))).resolves.toBeDefined();

    // A third passkey's copy made from the second's (a confirmation with a passkey, no password).
    const thirdPrf = prf();
    const thirdId = credentialId();
    const third = thirdPrf.slice(0);
    const thirdCopy = await pool.wrapPrivateKeyForPasskey({ kind: 'passkey', encryptedPrivateKey: secondCopy, prfOutput: kept.slice(0), credentialId: secondId }, thirdPrf, thirdId);
    await expect(pool.unlockPrivateKeyWithPasskey(thirdCopy, third.slice(0), thirdId)).resolves.toBeDefined();
    // The second's copy offered with the third's sign-in.
    await expectCryptoError(pool.unlockPrivateKeyWithPasskey(secondCopy, third.slice(0), thirdId), 'WRONG_PASSKEY');
  });
});
