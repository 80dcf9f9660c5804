// The organisation recovery key (docs/format.md, "The organisation recovery key"): a member's key
// sealed to the organisation's ECDH P-256 key (ECDH-ES, HKDF salted with the organisation SPKI's
// hash, AES-256-GCM bound to the member's id and public key), and the organisation private key
// sealed to an admin's RSA-OAEP account key (bound to the admin's id and the organisation key).
// Both checked against node:crypto both ways; every other binding, key or altered byte is
// WRONG_KEY, a wrong shape MALFORMED.
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ORG_RECOVERY_ADMIN_LABEL,
  ORG_RECOVERY_MEMBER_LABEL,
  exportPublicKeySpki,
  generateKeyPair,
  generateOrgRecoveryKeyPair,
  openAdminOrgKeyCopy,
  openMemberRecoveryCopy,
  sealAdminOrgKeyCopy,
  sealMemberRecoveryCopy,
} from '../../crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const MEMBER_ID = 17;
const ADMIN_ID = 3;

async function account() {
  const pair = await generateKeyPair();
  return { ...pair, spki: await exportPublicKeySpki(pair.publicKey) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();
const zero = Buffer.from([0]);
const memberAad = (userId: number, memberSpki: string) =>
  Buffer.concat([Buffer.from(ORG_RECOVERY_MEMBER_LABEL), zero, Buffer.from(String(userId)), zero, sha256(Buffer.from(memberSpki, 'base64'))]);
const adminAad = (userId: number, orgSpki: string) =>
  Buffer.concat([Buffer.from(ORG_RECOVERY_ADMIN_LABEL), zero, Buffer.from(String(userId)), zero, sha256(Buffer.from(orgSpki, 'base64'))]);

function altered(copy: string, at: number): string {
  const bytes = Buffer.from(copy, 'base64');
  bytes[at]! ^= 0x40;
  return bytes.toString('base64');
}

describe("a member's copy for the organisation key", () => {
  it('opens with the organisation private key for that member and key pair only', async () => {
    const member = await account();
    const org = await generateOrgRecoveryKeyPair();
    const copy = await sealMemberRecoveryCopy(member.privateKey, org.publicKeySpki, MEMBER_ID, member.spki);
    const opened = await openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki);
    expect(opened.type).toBe('private');
    expect(opened.extractable).toBe(false);

    // Another member id; another member's public key (a server claiming the copy is someone else's).
    await expectCryptoError(openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, MEMBER_ID + 1, member.spki), 'WRONG_KEY');
    const other = await account();
    await expectCryptoError(openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, MEMBER_ID, other.spki), 'WRONG_KEY');
    // Another organisation key.
    const otherOrg = await generateOrgRecoveryKeyPair();
    await expectCryptoError(openMemberRecoveryCopy(copy, otherOrg.privateKey, otherOrg.publicKeySpki, MEMBER_ID, member.spki), 'WRONG_KEY');
    // Altered: in the ephemeral key (still a point? then WRONG_KEY; not a point: MALFORMED), the IV, the ciphertext, the tag.
    for (const at of [100, 110, 200, Buffer.from(copy, 'base64').length - 1]) {
      await expectCryptoError(openMemberRecoveryCopy(altered(copy, at), org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki), 'WRONG_KEY');
    }
    await expectCryptoError(openMemberRecoveryCopy(altered(copy, 60), org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki), ['WRONG_KEY', 'MALFORMED']);
  });

  it('refuses a valid copy of another key pair (a server planting a key it knows)', async () => {
    const member = await account();
    const planted = await account();
    const org = await generateOrgRecoveryKeyPair();
    // Bound to the member's id and public key, but holding another private key.
    const copy = await sealMemberRecoveryCopy(planted.privateKey, org.publicKeySpki, MEMBER_ID, member.spki);
    await expectCryptoError(openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki), 'WRONG_KEY');
  });

  it('is ECDH-ES P-256, HKDF salted with SHA-256 of the organisation SPKI, AES-256-GCM bound to the member (node:crypto, both ways)', async () => {
    const member = await account();
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', member.privateKey));

    // The module seals, node opens with the organisation private key.
    const org = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const orgSpki = org.publicKey.export({ type: 'spki', format: 'der' });
    const copy = Buffer.from(await sealMemberRecoveryCopy(member.privateKey, orgSpki.toString('base64'), MEMBER_ID, member.spki), 'base64');
    const ephemeral = createPublicKey({ key: copy.subarray(0, 91), format: 'der', type: 'spki' });
    const shared = diffieHellman({ privateKey: org.privateKey, publicKey: ephemeral });
    const key = Buffer.from(hkdfSync('sha256', shared, sha256(orgSpki), ORG_RECOVERY_MEMBER_LABEL, 32));
    const decipher = createDecipheriv('aes-256-gcm', key, copy.subarray(91, 103));
    decipher.setAAD(memberAad(MEMBER_ID, member.spki));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    expect(Buffer.concat([decipher.update(copy.subarray(103, copy.length - 16)), decipher.final()])).toEqual(pkcs8);

    // Node seals, the module opens.
    const ours = await generateOrgRecoveryKeyPair();
    const oursSpki = Buffer.from(ours.publicKeySpki, 'base64');
    const nodeEphemeral = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const nodeShared = diffieHellman({ privateKey: nodeEphemeral.privateKey, publicKey: createPublicKey({ key: oursSpki, format: 'der', type: 'spki' }) });
    const nodeKey = Buffer.from(hkdfSync('sha256', nodeShared, sha256(oursSpki), ORG_RECOVERY_MEMBER_LABEL, 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', nodeKey, iv);
    cipher.setAAD(memberAad(MEMBER_ID, member.spki));
    const nodeCopy = Buffer.concat([nodeEphemeral.publicKey.export({ type: 'spki', format: 'der' }), iv, cipher.update(pkcs8), cipher.final(), cipher.getAuthTag()]);
    await expect(openMemberRecoveryCopy(nodeCopy.toString('base64'), ours.privateKey, ours.publicKeySpki, MEMBER_ID, member.spki)).resolves.toBeDefined();
  });

  it('refuses keys and data of the wrong shape as MALFORMED', async () => {
    const member = await account();
    const org = await generateOrgRecoveryKeyPair();
    const copy = await sealMemberRecoveryCopy(member.privateKey, org.publicKeySpki, MEMBER_ID, member.spki);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    for (const spki of [member.spki, p384, 'AAAA', 'not base64']) {
      await expectCryptoError(sealMemberRecoveryCopy(member.privateKey, spki, MEMBER_ID, member.spki), 'MALFORMED');
    }
    for (const id of [0, -1, 1.5, Number.NaN]) {
      await expectCryptoError(sealMemberRecoveryCopy(member.privateKey, org.publicKeySpki, id, member.spki), 'MALFORMED');
      await expectCryptoError(openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, id, member.spki), 'MALFORMED');
    }
    await expectCryptoError(openMemberRecoveryCopy('AAAA', org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki), 'MALFORMED');
    await expectCryptoError(openMemberRecoveryCopy(Buffer.alloc(91 + 28, 7).toString('base64'), org.privateKey, org.publicKeySpki, MEMBER_ID, member.spki), 'MALFORMED');
    await expectCryptoError(openMemberRecoveryCopy(copy, org.privateKey, org.publicKeySpki, MEMBER_ID, '!'), 'MALFORMED');
  });
});

describe("an admin's copy of the organisation private key", () => {
  it('opens with that admin\'s account key, for that admin and organisation key only', async () => {
    const admin = await account();
    const org = await generateOrgRecoveryKeyPair();
    const copy = await sealAdminOrgKeyCopy(org.privateKey, org.publicKeySpki, ADMIN_ID, admin.spki);
    const opened = await openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID, org.publicKeySpki);
    expect(opened.extractable).toBe(false);
    expect((await openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID, org.publicKeySpki, true)).extractable).toBe(true);

    // The opened key opens members' copies.
    const member = await account();
    const memberCopy = await sealMemberRecoveryCopy(member.privateKey, org.publicKeySpki, MEMBER_ID, member.spki);
    await expect(openMemberRecoveryCopy(memberCopy, opened, org.publicKeySpki, MEMBER_ID, member.spki)).resolves.toBeDefined();

    // Another admin's key; another admin id; another organisation key named; altered bytes.
    const other = await account();
    await expectCryptoError(openAdminOrgKeyCopy(copy, other.privateKey, ADMIN_ID, org.publicKeySpki), 'WRONG_KEY');
    await expectCryptoError(openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID + 1, org.publicKeySpki), 'WRONG_KEY');
    const otherOrg = await generateOrgRecoveryKeyPair();
    await expectCryptoError(openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID, otherOrg.publicKeySpki), 'WRONG_KEY');
    for (const at of [5, 260, 300, Buffer.from(copy, 'base64').length - 1]) {
      await expectCryptoError(openAdminOrgKeyCopy(altered(copy, at), admin.privateKey, ADMIN_ID, org.publicKeySpki), 'WRONG_KEY');
    }
  });

  it('refuses a valid copy of another organisation key named as this one (a server swapping the key)', async () => {
    const admin = await account();
    const org = await generateOrgRecoveryKeyPair();
    const planted = await generateOrgRecoveryKeyPair();
    // Bound to the real organisation key's hash, but holding the planted private key.
    const copy = await sealAdminOrgKeyCopy(planted.privateKey, org.publicKeySpki, ADMIN_ID, admin.spki);
    await expectCryptoError(openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID, org.publicKeySpki), 'WRONG_KEY');
  });

  it('is RSA-OAEP-SHA256 of a fresh AES-256-GCM key bound to the admin and the organisation key (node:crypto, both ways)', async () => {
    // The module seals to a node RSA key; node opens.
    const nodeAdmin = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const nodeAdminSpki = nodeAdmin.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const org = await generateOrgRecoveryKeyPair();
    const orgPkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', org.privateKey));
    const copy = Buffer.from(await sealAdminOrgKeyCopy(org.privateKey, org.publicKeySpki, ADMIN_ID, nodeAdminSpki), 'base64');
    const k = privateDecrypt({ key: nodeAdmin.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, copy.subarray(0, 256));
    expect(k).toHaveLength(32);
    const decipher = createDecipheriv('aes-256-gcm', k, copy.subarray(256, 268));
    decipher.setAAD(adminAad(ADMIN_ID, org.publicKeySpki));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    const pkcs8 = Buffer.concat([decipher.update(copy.subarray(268, copy.length - 16)), decipher.final()]);
    expect(pkcs8).toEqual(orgPkcs8);
    expect(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');

    // Node seals a node organisation key to the module's admin key; the module opens.
    const admin = await account();
    const nodeOrg = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const nodeOrgSpki = nodeOrg.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const nodeK = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', nodeK, iv);
    cipher.setAAD(adminAad(ADMIN_ID, nodeOrgSpki));
    const sealed = Buffer.concat([cipher.update(nodeOrg.privateKey.export({ type: 'pkcs8', format: 'der' })), cipher.final(), cipher.getAuthTag()]);
    const wrapped = publicEncrypt({ key: createPublicKey({ key: Buffer.from(admin.spki, 'base64'), format: 'der', type: 'spki' }), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, nodeK);
    const nodeCopy = Buffer.concat([wrapped, iv, sealed]).toString('base64');
    await expect(openAdminOrgKeyCopy(nodeCopy, admin.privateKey, ADMIN_ID, nodeOrgSpki)).resolves.toBeDefined();
  });

  it('refuses keys and data of the wrong shape as MALFORMED', async () => {
    const admin = await account();
    const org = await generateOrgRecoveryKeyPair();
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    // An ECDH key where the admin's RSA key belongs; an RSA key where the organisation key belongs.
    await expectCryptoError(sealAdminOrgKeyCopy(org.privateKey, org.publicKeySpki, ADMIN_ID, p256), 'MALFORMED');
    await expectCryptoError(sealAdminOrgKeyCopy(org.privateKey, admin.spki, ADMIN_ID, admin.spki), 'MALFORMED');
    await expectCryptoError(sealAdminOrgKeyCopy(org.privateKey, org.publicKeySpki, 0, admin.spki), 'MALFORMED');
    await expectCryptoError(openAdminOrgKeyCopy('AAAA', admin.privateKey, ADMIN_ID, org.publicKeySpki), 'MALFORMED');
    await expectCryptoError(openAdminOrgKeyCopy(Buffer.alloc(284, 1).toString('base64'), admin.privateKey, ADMIN_ID, org.publicKeySpki), 'MALFORMED');
    const copy = await sealAdminOrgKeyCopy(org.privateKey, org.publicKeySpki, ADMIN_ID, admin.spki);
    await expectCryptoError(openAdminOrgKeyCopy(copy, admin.privateKey, ADMIN_ID, 'not base64'), 'MALFORMED');
  });
});
