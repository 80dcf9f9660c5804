// The private key under a passkey: the fixed PRF salt is what its label says, a copy opens with
// its own credential's PRF output and id only, and a copy handed out with another credential's
// sign-in (a server swapping copies between a user's passkeys) is refused as WRONG_PASSKEY even
// when the PRF output is the same. Checked against node:crypto as an independent implementation.
import { createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PASSKEY_PRF_SALT,
  PASSKEY_PRF_SALT_LABEL,
  PASSKEY_WRAP_AAD_LABEL,
  PASSKEY_WRAP_INFO,
  generateKeyPair,
  unwrapPasskeyPrivateKey,
  wrapPrivateKeyForPasskey,
} from '../../crypto/index.ts';

const credential = (bytes: Buffer) => bytes.toString('base64url');

describe('the private key under a passkey', () => {
  it('asks the authenticator for SHA-256 of its label as the PRF salt', () => {
    expect(Buffer.from(PASSKEY_PRF_SALT)).toEqual(createHash('sha256').update(PASSKEY_PRF_SALT_LABEL).digest());
  });

  it('is AES-256-GCM under HKDF of the PRF output, bound to the credential id (node:crypto reads it)', async () => {
    const { privateKey } = await generateKeyPair();
    const prf = new Uint8Array(randomBytes(32));
    const idBytes = randomBytes(16);
    const copy = Buffer.from(await wrapPrivateKeyForPasskey(privateKey, prf, credential(idBytes)), 'base64');
    const key = Buffer.from(hkdfSync('sha256', prf, Buffer.alloc(0), PASSKEY_WRAP_INFO, 32));
    const decipher = createDecipheriv('aes-256-gcm', key, copy.subarray(0, 12));
    decipher.setAAD(Buffer.concat([Buffer.from(PASSKEY_WRAP_AAD_LABEL), Buffer.from([0]), idBytes]));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    const pkcs8 = Buffer.concat([decipher.update(copy.subarray(12, copy.length - 16)), decipher.final()]);
    expect(pkcs8).toEqual(Buffer.from(await crypto.subtle.exportKey('pkcs8', privateKey)));
  });

  it('opens with its own passkey, and refuses a copy swapped between credentials', async () => {
    const { privateKey } = await generateKeyPair();
    const prfA = new Uint8Array(randomBytes(32));
    const prfB = new Uint8Array(randomBytes(32));
    const idA = credential(randomBytes(16));
    const idB = credential(randomBytes(16));
    const copyA = await wrapPrivateKeyForPasskey(privateKey, prfA, idA);
    const copyB = await wrapPrivateKeyForPasskey(privateKey, prfB, idB);
    expect((await unwrapPasskeyPrivateKey(copyA, prfA, idA)).type).toBe('private');
    expect((await unwrapPasskeyPrivateKey(copyB, prfB, idB)).type).toBe('private');
    // Signed in with B, the server answers A's copy.
    await expect(unwrapPasskeyPrivateKey(copyA, prfB, idB)).rejects.toMatchObject({ code: 'WRONG_PASSKEY' });
    // Even a PRF output that agrees (one authenticator, two credentials) does not open another id's copy.
    const sameOutputOtherId = await wrapPrivateKeyForPasskey(privateKey, prfA, idB);
    await expect(unwrapPasskeyPrivateKey(sameOutputOtherId, prfA, idA)).rejects.toMatchObject({ code: 'WRONG_PASSKEY' });
    // Altered bytes, a short blob, a PRF output of the wrong size.
    const altered = Buffer.from(copyA, 'base64');
    altered[20]! ^= 1;
    await expect(unwrapPasskeyPrivateKey(altered.toString('base64'), prfA, idA)).rejects.toMatchObject({ code: 'WRONG_PASSKEY' });
    await expect(unwrapPasskeyPrivateKey('AAAA', prfA, idA)).rejects.toMatchObject({ code: 'MALFORMED' });
    await expect(unwrapPasskeyPrivateKey(copyA, prfA.subarray(0, 16), idA)).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});
