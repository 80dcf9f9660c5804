/**
 * Key wrapping per the spec, checked both ways against the node:crypto implementation: the
 * password-wrapped private key (and key backups), RSA-OAEP file keys, link fragments and
 * password-protected link keys with their verifier.
 */
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeBase64,
  encodeBase64,
  exportPublicKeySpki,
  exportRawFileKey,
  formatLinkFragment,
  generateFileKey,
  generateKeyPair,
  importPublicKeySpki,
  importRawFileKey,
  linkKdfParamsOf,
  deriveLinkPasswordVerifier,
  openLinkKeys,
  parseLinkFragment,
  protectLinkKeys,
  rewrapPrivateKey,
  unwrapFileKey,
  unwrapPrivateKey,
  wrapFileKey,
  wrapPrivateKey,
  PRIVATE_KEY_KDF_ITERATIONS,
  LINK_KDF_ITERATIONS,
  ARGON2_LIMITS,
  encodeKdfParams,
  newArgon2Params,
  newKdfParams,
  deriveAccountSecrets,
} from '../../crypto/index.ts';
import * as node from '../../server/crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const PASSWORD = 'correct horse battery staple ünïcødé';
/** Scheme-2 blocks at the cheapest cost the format allows (the bytes are the same at any cost). */
const cheapArgon2 = () => newArgon2Params(); // the default cost: a client derives with nothing cheaper
const accountParams = () => encodeKdfParams(cheapArgon2());
/** The old scheme 1 as the app wrote it before issue 27. */
const scheme1Params = (iterations = PRIVATE_KEY_KDF_ITERATIONS) => encodeKdfParams(newKdfParams(iterations));

let browserPair: CryptoKeyPair;
let nodePair: node.NodeKeyPair;

beforeAll(async () => {
  browserPair = await generateKeyPair();
  nodePair = node.generateRsaKeyPair();
});

describe('RSA-OAEP key pair and file keys', () => {
  it('generates RSA-OAEP 2048 / SHA-256 / e=65537 and exports SPKI', async () => {
    const spki = await exportPublicKeySpki(browserPair.publicKey);
    const algorithm = (await importPublicKeySpki(spki)).algorithm as RsaHashedKeyAlgorithm;
    expect(algorithm).toMatchObject({ name: 'RSA-OAEP', modulusLength: 2048, hash: { name: 'SHA-256' } });
    expect(Array.from(algorithm.publicExponent)).toEqual([1, 0, 1]);
  });

  it('a file key wrapped in the browser opens in node, and the reverse', async () => {
    const fileKey = await generateFileKey();
    const raw = Buffer.from(await exportRawFileKey(fileKey));
    const wrappedForNode = await wrapFileKey(fileKey, await importPublicKeySpki(nodePair.publicKeySpki));
    expect(decodeBase64(wrappedForNode)).toHaveLength(256);
    expect(node.unwrapFileKey(nodePair.privateKey, wrappedForNode).equals(raw)).toBe(true);

    const browserPkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', browserPair.privateKey));
    const browserPrivateInNode = createPrivateKey({ key: browserPkcs8, format: 'der', type: 'pkcs8' });
    const wrappedByNode = node.wrapFileKey(await exportPublicKeySpki(browserPair.publicKey), raw);
    const unwrapped = await unwrapFileKey(wrappedByNode, browserPair.privateKey);
    expect(Buffer.from(await exportRawFileKey(unwrapped)).equals(raw)).toBe(true);
    expect(node.unwrapFileKey(browserPrivateInNode, wrappedByNode).equals(raw)).toBe(true);
  });

  it('a file key wrapped for another key pair is WRONG_KEY, a damaged one MALFORMED or WRONG_KEY', async () => {
    const fileKey = await generateFileKey();
    const wrapped = await wrapFileKey(fileKey, await importPublicKeySpki(nodePair.publicKeySpki));
    await expectCryptoError(unwrapFileKey(wrapped, browserPair.privateKey), 'WRONG_KEY');
    const bytes = decodeBase64(wrapped);
    bytes[100] = bytes[100]! ^ 1;
    await expectCryptoError(unwrapFileKey(encodeBase64(bytes), (await generateKeyPair()).privateKey), 'WRONG_KEY');
    await expectCryptoError(unwrapFileKey(wrapped.slice(0, -4), browserPair.privateKey), 'MALFORMED');
    await expectCryptoError(unwrapFileKey('not base64!', browserPair.privateKey), 'MALFORMED');
  });

  it('rejects public keys that are not RSA-OAEP 2048 with e=65537', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const exponent3 = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 3 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    for (const spki of [small, ec, exponent3, 'AAAA', '']) await expectCryptoError(importPublicKeySpki(spki), 'MALFORMED');
  });

  it('raw file keys must be exactly 32 bytes', async () => {
    await expectCryptoError(importRawFileKey(new Uint8Array(16)), 'MALFORMED');
    await expectCryptoError(importRawFileKey(new Uint8Array(33)), 'MALFORMED');
  });
});

describe('private key wrapped by the login password', () => {
  it('scheme 2: browser-wrapped key data carries the account block as kdfSalt and opens in node', async () => {
    const kdfParams = accountParams();
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD, kdfParams);
    expect(data.kdfSalt).toBe(kdfParams);
    expect(decodeBase64(data.kdfSalt)).toHaveLength(26);
    const inNode = node.unwrapPrivateKey(data, PASSWORD);
    const expected = Buffer.from(await crypto.subtle.exportKey('pkcs8', browserPair.privateKey));
    expect(inNode.export({ type: 'pkcs8', format: 'der' }).equals(expected)).toBe(true);
  });

  it('scheme 2: the wrapping key is HKDF(master, "sealdrop/private-key-wrap/v1"), the one the sign-in derivation yields', async () => {
    const kdfParams = accountParams();
    const data = node.wrapPrivateKeyScheme2(nodePair.privateKey, PASSWORD, kdfParams);
    const { wrappingKey } = await deriveAccountSecrets(PASSWORD, kdfParams, undefined);
    const sealed = decodeBase64(data.encryptedPrivateKey);
    const pkcs8 = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, 12) }, wrappingKey, sealed.subarray(12));
    expect(Buffer.from(pkcs8).equals(nodePair.privateKey.export({ type: 'pkcs8', format: 'der' }))).toBe(true);
    await expect(unwrapPrivateKey(data, PASSWORD)).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
  });

  it('scheme 1 (what the app wrote before): browser and node open each other\'s key data', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD, scheme1Params());
    const block = decodeBase64(data.kdfSalt);
    expect(block).toHaveLength(21);
    expect(block[0]).toBe(1);
    expect(new DataView(block.buffer).getUint32(1)).toBe(PRIVATE_KEY_KDF_ITERATIONS);
    expect(decodeBase64(data.encryptedPrivateKey).length).toBeGreaterThan(12 + 16 + 1000);
    expect(node.unwrapPrivateKey(data, PASSWORD).asymmetricKeyType).toBe('rsa');
    const byNode = node.wrapPrivateKey(nodePair.privateKey, PASSWORD);
    const privateKey = await unwrapPrivateKey(byNode, PASSWORD);
    expect(privateKey.extractable).toBe(false);
    const raw = Buffer.alloc(32, 7);
    const fileKey = await unwrapFileKey(node.wrapFileKey(nodePair.publicKeySpki, raw), privateKey);
    expect(Buffer.from(await exportRawFileKey(fileKey)).equals(raw)).toBe(true);
  });

  it('reads the spec form: a bare 16-byte salt means 250000 iterations', async () => {
    const data = node.wrapPrivateKey(nodePair.privateKey, PASSWORD);
    const bareSalt = encodeBase64(decodeBase64(data.kdfSalt).subarray(5));
    await expect(unwrapPrivateKey({ ...data, kdfSalt: bareSalt }, PASSWORD)).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
    expect(node.unwrapPrivateKey({ ...data, kdfSalt: bareSalt }, PASSWORD).asymmetricKeyType).toBe('rsa');
    const raised = node.wrapPrivateKey(nodePair.privateKey, PASSWORD, 300_000);
    await expect(unwrapPrivateKey(raised, PASSWORD)).resolves.toMatchObject({ type: 'private', algorithm: { name: 'RSA-OAEP' } });
  });

  it('a wrong password is WRONG_PASSWORD, in both implementations and both schemes', async () => {
    for (const kdfParams of [accountParams(), scheme1Params(100_000)]) {
      const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD, kdfParams);
      await expectCryptoError(unwrapPrivateKey(data, PASSWORD + 'x'), 'WRONG_PASSWORD');
      expect(() => node.unwrapPrivateKey(data, 'wrong')).toThrow(expect.objectContaining({ code: 'WRONG_PASSWORD' }));
    }
  });

  it('altered key data is WRONG_PASSWORD (GCM cannot tell the two apart); bad shapes are MALFORMED', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD, scheme1Params(100_000));
    const sealed = decodeBase64(data.encryptedPrivateKey);
    sealed[40] = sealed[40]! ^ 0x80;
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: encodeBase64(sealed) }, PASSWORD), 'WRONG_PASSWORD');
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: encodeBase64(new Uint8Array(12)) }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: 'a$b=' }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(new Uint8Array(15)) }, PASSWORD), 'MALFORMED');
    const block = decodeBase64(data.kdfSalt);
    block[0] = 9; // 1, 2 and 3 are known schemes (kdf.ts)
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(block) }, PASSWORD), 'UNSUPPORTED_VERSION');
    block[0] = 2; // scheme 2 blocks are 26 bytes
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(block) }, PASSWORD), 'MALFORMED');
    block[0] = 1;
    new DataView(block.buffer).setUint32(1, 1000);
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(block) }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey(data, ''), 'MALFORMED');
  });

  it('a password change (or a first sign-in on scheme 2) re-wraps under the new block; the old password stops working', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD, scheme1Params(100_000));
    const kdfParams = accountParams();
    const changed = await rewrapPrivateKey(data, PASSWORD, 'new password 123', kdfParams);
    expect(changed.kdfSalt).toBe(kdfParams);
    await expectCryptoError(unwrapPrivateKey(changed, PASSWORD), 'WRONG_PASSWORD');
    expect(node.unwrapPrivateKey(changed, 'new password 123').asymmetricKeyType).toBe('rsa');
    const upgraded = await rewrapPrivateKey(data, PASSWORD, PASSWORD, accountParams());
    expect(decodeBase64(upgraded.kdfSalt)[0]).toBe(2);
    expect(node.unwrapPrivateKey(upgraded, PASSWORD).asymmetricKeyType).toBe('rsa');
    await expectCryptoError(rewrapPrivateKey(data, 'not it', 'x', kdfParams), 'WRONG_PASSWORD');
  });
});

describe('download link keys', () => {
  async function twoFileKeys() {
    const a = await generateFileKey();
    const b = await generateFileKey();
    return [
      { fileId: '12', key: a, raw: Buffer.from(await exportRawFileKey(a)) },
      { fileId: '345', key: b, raw: Buffer.from(await exportRawFileKey(b)) },
    ];
  }

  it("fragment 'fileId:base64key' pairs round-trip through both implementations", async () => {
    const files = await twoFileKeys();
    const fragment = await formatLinkFragment(files);
    expect(fragment).toBe(files.map((f) => `${f.fileId}:${f.raw.toString('base64')}`).join(','));
    const parsedByNode = node.parseFragment(`#${fragment}`);
    expect(parsedByNode.get('345')!.equals(files[1]!.raw)).toBe(true);
    const parsed = await parseLinkFragment(node.formatFragment(parsedByNode));
    expect(Buffer.from(await exportRawFileKey(parsed.get('12')!)).equals(files[0]!.raw)).toBe(true);
  });

  it('accepts URL-safe or percent-encoded keys that survived copying, rejects damaged fragments', async () => {
    const files = await twoFileKeys();
    const urlSafe = `12:${files[0]!.raw.toString('base64url')}`;
    expect((await parseLinkFragment(urlSafe)).size).toBe(1);
    const percent = `12:${encodeURIComponent(files[0]!.raw.toString('base64'))}`;
    expect((await parseLinkFragment(percent)).size).toBe(1);
    const good = `12:${files[0]!.raw.toString('base64')}`;
    for (const bad of ['', '#', '12', ':abc', `12:${files[0]!.raw.subarray(1).toString('base64')}`, `${good},`, `${good},${good}`, `1 2:${files[0]!.raw.toString('base64')}`, '12:%zz']) {
      await expectCryptoError(parseLinkFragment(bad), 'MALFORMED');
    }
  });

  it("password links (scheme 2, what new links use): 'wrappedKey:ivPlusCiphertext' opens in node and the reverse; verifiers agree", async () => {
    const files = await twoFileKeys();
    const protection = await protectLinkKeys('link password 99', files, cheapArgon2());
    const value = protection.reencryptedKeys['12']!;
    const [wrappedKey, ivPlusCiphertext, extra] = value.split(':');
    expect(extra).toBeUndefined();
    expect(decodeBase64(wrappedKey!)).toHaveLength(26 + 12 + 48);
    expect(decodeBase64(ivPlusCiphertext!)).toHaveLength(12 + 48);
    expect(linkKdfParamsOf(value)).toBe(protection.kdfParams);
    expect(decodeBase64(protection.kdfParams)[0]).toBe(2);

    const openedByNode = node.openLinkKeys('link password 99', protection.reencryptedKeys);
    expect(openedByNode.get('345')!.equals(files[1]!.raw)).toBe(true);
    expect(node.linkVerifier('link password 99', protection.kdfParams)).toBe(protection.verifier);
    expect(await deriveLinkPasswordVerifier('link password 99', protection.kdfParams)).toBe(protection.verifier);

    const byNode = node.protectLinkKeys('pässwort', new Map(files.map((f) => [f.fileId, f.raw])), { scheme: 2 });
    const opened = await openLinkKeys('pässwort', byNode.reencryptedKeys);
    expect(Buffer.from(await exportRawFileKey(opened.get('12')!)).equals(files[0]!.raw)).toBe(true);
    expect(await deriveLinkPasswordVerifier('pässwort', byNode.kdfParams)).toBe(byNode.verifier);
  });

  it('the pinned scheme-2 link vector of docs/format.md: both implementations derive its verifier', async () => {
    const kdfParams = 'AgABAAAAAAADARAREhMUFRYXGBkaGxwdHh8=';
    const verifier = Buffer.from('a8e5eecdd7ad0d3cc9989ae3eb494c2d4ddb9a672d3334a16cade467160fc219', 'hex').toString('base64');
    expect(node.linkVerifier('SonneWolke26-418', kdfParams)).toBe(verifier);
    expect(await deriveLinkPasswordVerifier('SonneWolke26-418', kdfParams)).toBe(verifier);
  });

  it('new links default to scheme 2 at the default cost, in both implementations', async () => {
    const files = await twoFileKeys();
    const block = decodeBase64((await protectLinkKeys('link password 99', files.slice(0, 1))).kdfParams);
    expect(block).toHaveLength(26);
    expect([block[0], new DataView(block.buffer).getUint32(1), new DataView(block.buffer).getUint32(5), block[9]]).toEqual([2, 65_536, 3, 1]);
    expect(Buffer.from(node.protectLinkKeys('x', new Map([['1', files[0]!.raw]])).kdfParams, 'base64').subarray(0, 10)).toEqual(Buffer.from(block.subarray(0, 10)));
  });

  it('password links of the old scheme 1 (PBKDF2 150000) keep opening in both implementations', async () => {
    const files = await twoFileKeys();
    const old = await protectLinkKeys('link password 99', files, newKdfParams(LINK_KDF_ITERATIONS));
    expect(decodeBase64(old.reencryptedKeys['12']!.split(':')[0]!)).toHaveLength(21 + 12 + 48);
    expect(new DataView(decodeBase64(old.kdfParams).buffer).getUint32(1)).toBe(LINK_KDF_ITERATIONS);
    expect(node.openLinkKeys('link password 99', old.reencryptedKeys).get('12')!.equals(files[0]!.raw)).toBe(true);
    expect(node.linkVerifier('link password 99', old.kdfParams)).toBe(old.verifier);
    const byNode = node.protectLinkKeys('pässwort', new Map(files.map((f) => [f.fileId, f.raw])), { scheme: 1 });
    const opened = await openLinkKeys('pässwort', byNode.reencryptedKeys);
    expect(Buffer.from(await exportRawFileKey(opened.get('345')!)).equals(files[1]!.raw)).toBe(true);
    expect(await deriveLinkPasswordVerifier('pässwort', byNode.kdfParams)).toBe(byNode.verifier);
  });

  it('a wrapped link key of an unknown scheme is UNSUPPORTED_VERSION, one of the wrong length MALFORMED', async () => {
    const files = await twoFileKeys();
    const { reencryptedKeys } = await protectLinkKeys('p', files.slice(0, 1), cheapArgon2());
    const [wrapped, sealed] = reencryptedKeys['12']!.split(':');
    const bytes = decodeBase64(wrapped!);
    bytes[0] = 7;
    await expectCryptoError(openLinkKeys('p', { '12': `${encodeBase64(bytes)}:${sealed}` }), 'UNSUPPORTED_VERSION');
    expect(() => node.openLinkKeys('p', { '12': `${encodeBase64(bytes)}:${sealed}` })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }));
    bytes[0] = 1; // a scheme-1 block is 21 bytes: this wrapped key is now 5 bytes too long
    await expectCryptoError(openLinkKeys('p', { '12': `${encodeBase64(bytes)}:${sealed}` }), 'MALFORMED');
    expect(() => node.openLinkKeys('p', { '12': `${encodeBase64(bytes)}:${sealed}` })).toThrow(expect.objectContaining({ code: 'MALFORMED' }));
  });

  it('the verifier differs from anything that opens the keys and changes with the password', async () => {
    const files = await twoFileKeys();
    const protection = await protectLinkKeys('link password 99', files, cheapArgon2());
    expect(await deriveLinkPasswordVerifier('link password 98', protection.kdfParams)).not.toBe(protection.verifier);
    expect(protection.reencryptedKeys['12']).not.toContain(protection.verifier);
  });

  it('wrong link password is WRONG_PASSWORD; altered or moved file keys are INTEGRITY', async () => {
    const files = await twoFileKeys();
    const { reencryptedKeys } = await protectLinkKeys('link password 99', files, cheapArgon2());
    await expectCryptoError(openLinkKeys('link password 98', reencryptedKeys), 'WRONG_PASSWORD');
    // The server swaps the keys of two files: each is bound to its file id.
    await expectCryptoError(openLinkKeys('link password 99', { '12': reencryptedKeys['345']!, '345': reencryptedKeys['12']! }), 'INTEGRITY');
    const [wrapped, sealed] = reencryptedKeys['12']!.split(':');
    const altered = decodeBase64(sealed!);
    altered[20] = altered[20]! ^ 4;
    await expectCryptoError(openLinkKeys('link password 99', { '12': `${wrapped}:${encodeBase64(altered)}` }), 'INTEGRITY');
    for (const bad of ['', 'abc', `${wrapped}`, `${wrapped}:${sealed}:x`, `${wrapped}:AAAA`, `AAAA:${sealed}`]) {
      await expectCryptoError(openLinkKeys('link password 99', { '12': bad }), 'MALFORMED');
    }
    await expectCryptoError(openLinkKeys('link password 99', {}), 'MALFORMED');
  });
});
