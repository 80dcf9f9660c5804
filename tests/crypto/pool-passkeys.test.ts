/**
 * The pool's passkey calls with in-process workers (Comlink over a MessageChannel, as in the app):
 * the PRF output is transferred (the caller's buffer is detached, nothing of it stays on the
 * page), a copy made from the password's key data opens with that passkey and unwraps file keys,
 * a new passkey's copy can be made from another passkey's copy, and another credential's copy is
 * WRONG_PASSKEY across the worker boundary.
 */
import { randomBytes, randomUUID } from 'node:crypto';
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

describe('CryptoPool: a new passkey\'s copy from the session\'s key (accounts without a password)', () => {
  it('wraps the key a single-sign-on path opened, checked against the account\'s public key', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const deviceKey = await pool.generateDeviceKey();
    const created = await pool.createSsoKeyPair('carol', deviceKey, randomUUID());
    const session = { kind: 'session', privateKey: created.privateKey, expectedSpki: created.publicKeySpki } as const;

    const wrapping = prf();
    const opening = wrapping.slice(0);
    const id = credentialId();
    const copy = await pool.wrapPrivateKeyForPasskey(session, wrapping, id);
    expect(wrapping.byteLength).toBe(0);
    // The copy opens with that passkey into the account's key, checked against its public key.
    const opened = await pool.unlockPrivateKeyWithPasskey(copy, opening.slice(0), id, created.publicKeySpki);
    const rawKey = randomBytes(32);
    const fileKey = await pool.unwrapFileKey(opened, wrapFileKey(created.publicKeySpki, rawKey));
    expect(await pool.formatLinkFragment([{ fileId: 'f', key: fileKey }])).toBe(`f:${rawKey.toString('base64')}`);
    // Opened against another account's public key: WRONG_KEY, like the other single-sign-on copies.
    const other = generateRsaKeyPair().publicKeySpki;
    await expectCryptoError(pool.unlockPrivateKeyWithPasskey(copy, opening.slice(0), id, other), 'WRONG_KEY');

    // The session's key named for another key pair is refused before anything is wrapped.
    await expectCryptoError(pool.wrapPrivateKeyForPasskey({ ...session, expectedSpki: other }, prf(), credentialId()), 'WRONG_KEY');
    // A key opened by a passkey on /sso can give the next passkey (and this device) a copy too.
    await expect(pool.wrapPrivateKeyForPasskey({ ...session, privateKey: opened }, prf(), credentialId())).resolves.toMatch(/^[A-Za-z0-9+/]+=*$/);
    await expect(pool.wrapPrivateKeyForDevice({ kind: 'session', privateKey: opened, expectedSpki: created.publicKeySpki }, deviceKey, randomUUID())).resolves.toBeTruthy();
    await expectCryptoError(pool.wrapPrivateKeyForDevice({ kind: 'session', privateKey: opened, expectedSpki: other }, deviceKey, randomUUID()), 'WRONG_KEY');
  });

  it('refuses the session\'s key when it was opened with a login password (it keeps no copy to wrap)', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const admin = generateRsaKeyPair();
    const handle = await pool.unlockPrivateKey(wrapPrivateKey(admin.privateKey, 'login password', 100_000), 'login password');
    await expectCryptoError(pool.wrapPrivateKeyForPasskey({ kind: 'session', privateKey: handle, expectedSpki: admin.publicKeySpki }, prf(), credentialId()), 'UNKNOWN_KEY');
    // And a passkey copy opened without the account's public key (the sign-in page) keeps none either.
    const id = credentialId();
    const wrapping = prf();
    const opening = wrapping.slice(0);
    const copy = await pool.wrapPrivateKeyForPasskey({ kind: 'password', data: wrapPrivateKey(admin.privateKey, 'login password', 100_000), password: 'login password' }, wrapping, id);
    const signedIn = await pool.unlockPrivateKeyWithPasskey(copy, opening, id);
    await expectCryptoError(pool.wrapPrivateKeyForPasskey({ kind: 'session', privateKey: signedIn, expectedSpki: admin.publicKeySpki }, prf(), credentialId()), 'UNKNOWN_KEY');
  });
});
