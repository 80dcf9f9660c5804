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
} from '../../crypto/index.ts';
import * as node from '../../server/crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const PASSWORD = 'correct horse battery staple ünïcødé';

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
  it('browser-wrapped key data (and backups) open in node, with the parameters stored beside them', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD);
    const block = decodeBase64(data.kdfSalt);
    expect(block).toHaveLength(21);
    expect(block[0]).toBe(1);
    expect(new DataView(block.buffer).getUint32(1)).toBe(PRIVATE_KEY_KDF_ITERATIONS);
    expect(decodeBase64(data.encryptedPrivateKey).length).toBeGreaterThan(12 + 16 + 1000);
    const inNode = node.unwrapPrivateKey(data, PASSWORD);
    const expected = Buffer.from(await crypto.subtle.exportKey('pkcs8', browserPair.privateKey));
    expect(inNode.export({ type: 'pkcs8', format: 'der' }).equals(expected)).toBe(true);
  });

  it('node-wrapped key data opens in the browser and unwraps file keys', async () => {
    const data = node.wrapPrivateKey(nodePair.privateKey, PASSWORD);
    const privateKey = await unwrapPrivateKey(data, PASSWORD);
    expect(privateKey.extractable).toBe(false);
    const raw = Buffer.alloc(32, 7);
    const fileKey = await unwrapFileKey(node.wrapFileKey(nodePair.publicKeySpki, raw), privateKey);
    expect(Buffer.from(await exportRawFileKey(fileKey)).equals(raw)).toBe(true);
  });

  it('reads the spec form: a bare 16-byte salt means 250000 iterations', async () => {
    const data = node.wrapPrivateKey(nodePair.privateKey, PASSWORD);
    const bareSalt = encodeBase64(decodeBase64(data.kdfSalt).subarray(5));
    await expect(unwrapPrivateKey({ ...data, kdfSalt: bareSalt }, PASSWORD)).resolves.toBeDefined();
    const raised = node.wrapPrivateKey(nodePair.privateKey, PASSWORD, 300_000);
    await expect(unwrapPrivateKey(raised, PASSWORD)).resolves.toBeDefined();
  });

  it('a wrong password is WRONG_PASSWORD, in both implementations', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD);
    await expectCryptoError(unwrapPrivateKey(data, PASSWORD + 'x'), 'WRONG_PASSWORD');
    expect(() => node.unwrapPrivateKey(data, 'wrong')).toThrow(expect.objectContaining({ code: 'WRONG_PASSWORD' }));
  });

  it('altered key data is WRONG_PASSWORD (GCM cannot tell the two apart); bad shapes are MALFORMED', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD);
    const sealed = decodeBase64(data.encryptedPrivateKey);
    sealed[40] = sealed[40]! ^ 0x80;
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: encodeBase64(sealed) }, PASSWORD), 'WRONG_PASSWORD');
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: encodeBase64(new Uint8Array(12)) }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey({ ...data, encryptedPrivateKey: 'a$b=' }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(new Uint8Array(15)) }, PASSWORD), 'MALFORMED');
    const block = decodeBase64(data.kdfSalt);
    block[0] = 2;
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(block) }, PASSWORD), 'UNSUPPORTED_VERSION');
    block[0] = 1;
    new DataView(block.buffer).setUint32(1, 1000);
    await expectCryptoError(unwrapPrivateKey({ ...data, kdfSalt: encodeBase64(block) }, PASSWORD), 'MALFORMED');
    await expectCryptoError(unwrapPrivateKey(data, ''), 'MALFORMED');
  });

  it('a password change re-wraps under a fresh salt; the old password stops working', async () => {
    const data = await wrapPrivateKey(browserPair.privateKey, PASSWORD);
    const changed = await rewrapPrivateKey(data, PASSWORD, 'new password 123');
    expect(changed.kdfSalt).not.toBe(data.kdfSalt);
    await expectCryptoError(unwrapPrivateKey(changed, PASSWORD), 'WRONG_PASSWORD');
    expect(node.unwrapPrivateKey(changed, 'new password 123').asymmetricKeyType).toBe('rsa');
    await expectCryptoError(rewrapPrivateKey(data, 'not it', 'x'), 'WRONG_PASSWORD');
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

  it("password links: 'wrappedKey:ivPlusCiphertext' opens in node and the reverse; verifiers agree", async () => {
    const files = await twoFileKeys();
    const protection = await protectLinkKeys('link password 99', files);
    const value = protection.reencryptedKeys['12']!;
    const [wrappedKey, ivPlusCiphertext, extra] = value.split(':');
    expect(extra).toBeUndefined();
    expect(decodeBase64(wrappedKey!)).toHaveLength(21 + 12 + 48);
    expect(decodeBase64(ivPlusCiphertext!)).toHaveLength(12 + 48);
    expect(linkKdfParamsOf(value)).toBe(protection.kdfParams);
    expect(new DataView(decodeBase64(protection.kdfParams).buffer).getUint32(1)).toBe(LINK_KDF_ITERATIONS);

    const openedByNode = node.openLinkKeys('link password 99', protection.reencryptedKeys);
    expect(openedByNode.get('345')!.equals(files[1]!.raw)).toBe(true);
    expect(node.linkVerifier('link password 99', protection.kdfParams)).toBe(protection.verifier);
    expect(await deriveLinkPasswordVerifier('link password 99', protection.kdfParams)).toBe(protection.verifier);

    const byNode = node.protectLinkKeys('pässwort', new Map(files.map((f) => [f.fileId, f.raw])));
    const opened = await openLinkKeys('pässwort', byNode.reencryptedKeys);
    expect(Buffer.from(await exportRawFileKey(opened.get('12')!)).equals(files[0]!.raw)).toBe(true);
    expect(await deriveLinkPasswordVerifier('pässwort', byNode.kdfParams)).toBe(byNode.verifier);
  });

  it('the verifier differs from anything that opens the keys and changes with the password', async () => {
    const files = await twoFileKeys();
    const protection = await protectLinkKeys('link password 99', files);
    expect(await deriveLinkPasswordVerifier('link password 98', protection.kdfParams)).not.toBe(protection.verifier);
    expect(protection.reencryptedKeys['12']).not.toContain(protection.verifier);
  });

  it('wrong link password is WRONG_PASSWORD; altered or moved file keys are INTEGRITY', async () => {
    const files = await twoFileKeys();
    const { reencryptedKeys } = await protectLinkKeys('link password 99', files);
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
