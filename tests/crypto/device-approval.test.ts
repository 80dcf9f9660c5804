// A new device approved from one that has the private key: the requester's ECDH P-256 key pair,
// the approver's own, HKDF salted with the requester's SPKI hash, the copy bound to the request id
// and the requester's key. Checked both ways against node:crypto (diffieHellman + hkdfSync +
// aes-256-gcm). Every binding that differs is WRONG_KEY, and so is a copy of another key pair
// (what a server that plays the approver could make). The fingerprint phrase is five BIP-39 words
// of the requester's SPKI, with a fixed vector.
import { createCipheriv, createDecipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_PHRASE_LABEL,
  DEVICE_APPROVAL_LABEL,
  approvalPhrase,
  exportPublicKeySpki,
  generateApprovalRequestKeys,
  generateKeyPair,
  openDeviceApproval,
  sealDeviceApproval,
} from '../../crypto/index.ts';
import { expectCryptoError } from './helpers.ts';

const REQUEST_ID = '5f0c1e9a-7b3d-4c2e-9a61-0d8f4b2c7e13';

function nodeWrappingKey(shared: Buffer, requesterSpki: Buffer): { key: Buffer; hash: Buffer } {
  const hash = createHash('sha256').update(requesterSpki).digest();
  return { key: Buffer.from(hkdfSync('sha256', shared, hash, DEVICE_APPROVAL_LABEL, 32)), hash };
}

const aad = (requestId: string, hash: Buffer) => Buffer.concat([Buffer.from(DEVICE_APPROVAL_LABEL), Buffer.from([0]), Buffer.from(requestId), Buffer.from([0]), hash]);

async function account() {
  const pair = await generateKeyPair();
  return { ...pair, spki: await exportPublicKeySpki(pair.publicKey) };
}

describe('device approval', () => {
  it('opens on the requester with its own key pair, the approver key and the request id, and nothing else', async () => {
    const alice = await account();
    const request = await generateApprovalRequestKeys();
    expect(request.privateKey.extractable).toBe(false);
    const approval = await sealDeviceApproval(alice.privateKey, REQUEST_ID, request.publicKeySpki);
    const opened = await openDeviceApproval(request, REQUEST_ID, approval.approverPublicKeySpki, approval.copy, alice.spki);
    expect(opened.type).toBe('private');
    expect(opened.extractable).toBe(false);

    // Another request id; another requester (the copy was sealed to someone else's key).
    await expectCryptoError(openDeviceApproval(request, 'another-request', approval.approverPublicKeySpki, approval.copy, alice.spki), 'WRONG_KEY');
    const otherRequest = await generateApprovalRequestKeys();
    await expectCryptoError(openDeviceApproval(otherRequest, REQUEST_ID, approval.approverPublicKeySpki, approval.copy, alice.spki), 'WRONG_KEY');
    // The approver's public key swapped in transit.
    const swapped = await sealDeviceApproval(alice.privateKey, REQUEST_ID, request.publicKeySpki);
    await expectCryptoError(openDeviceApproval(request, REQUEST_ID, swapped.approverPublicKeySpki, approval.copy, alice.spki), 'WRONG_KEY');
    // Altered bytes.
    const altered = Buffer.from(approval.copy, 'base64');
    altered[12]! ^= 0x80;
    await expectCryptoError(openDeviceApproval(request, REQUEST_ID, approval.approverPublicKeySpki, altered.toString('base64'), alice.spki), 'WRONG_KEY');
  });

  it("refuses a valid approval of another key pair (a server acting as the approver with a key it knows)", async () => {
    const alice = await account();
    const planted = await account();
    const request = await generateApprovalRequestKeys();
    const approval = await sealDeviceApproval(planted.privateKey, REQUEST_ID, request.publicKeySpki);
    await expectCryptoError(openDeviceApproval(request, REQUEST_ID, approval.approverPublicKeySpki, approval.copy, alice.spki), 'WRONG_KEY');
  });

  it('is ECDH P-256, HKDF salted with SHA-256 of the requester SPKI, AES-256-GCM bound to the request (node:crypto, both ways)', async () => {
    const alice = await account();
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', alice.privateKey));

    // The module approves, node is the requester.
    const requester = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const requesterSpki = requester.publicKey.export({ type: 'spki', format: 'der' });
    const approval = await sealDeviceApproval(alice.privateKey, REQUEST_ID, requesterSpki.toString('base64'));
    const approverPublic = createPublicKey({ key: Buffer.from(approval.approverPublicKeySpki, 'base64'), format: 'der', type: 'spki' });
    const shared = diffieHellman({ privateKey: requester.privateKey, publicKey: approverPublic });
    expect(shared).toHaveLength(32);
    const { key, hash } = nodeWrappingKey(shared, requesterSpki);
    const copy = Buffer.from(approval.copy, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, copy.subarray(0, 12));
    decipher.setAAD(aad(REQUEST_ID, hash));
    decipher.setAuthTag(copy.subarray(copy.length - 16));
    expect(Buffer.concat([decipher.update(copy.subarray(12, copy.length - 16)), decipher.final()])).toEqual(pkcs8);

    // Node approves, the module is the requester.
    const request = await generateApprovalRequestKeys();
    const ownSpki = Buffer.from(request.publicKeySpki, 'base64');
    const approver = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const nodeShared = diffieHellman({ privateKey: approver.privateKey, publicKey: createPublicKey({ key: ownSpki, format: 'der', type: 'spki' }) });
    const wrapping = nodeWrappingKey(nodeShared, ownSpki);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', wrapping.key, iv);
    cipher.setAAD(aad(REQUEST_ID, wrapping.hash));
    const sealed = Buffer.concat([iv, cipher.update(pkcs8), cipher.final(), cipher.getAuthTag()]).toString('base64');
    const approverSpki = approver.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    await expect(openDeviceApproval(request, REQUEST_ID, approverSpki, sealed, alice.spki)).resolves.toBeDefined();
  });

  it('refuses keys and data of the wrong shape as MALFORMED', async () => {
    const alice = await account();
    const request = await generateApprovalRequestKeys();
    const approval = await sealDeviceApproval(alice.privateKey, REQUEST_ID, request.publicKeySpki);
    // An RSA key, a P-384 key and garbage where an ECDH P-256 key belongs.
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    for (const spki of [alice.spki, p384, 'AAAA', 'not base64']) {
      await expectCryptoError(sealDeviceApproval(alice.privateKey, REQUEST_ID, spki), 'MALFORMED');
      await expectCryptoError(openDeviceApproval(request, REQUEST_ID, spki, approval.copy, alice.spki), 'MALFORMED');
    }
    await expectCryptoError(sealDeviceApproval(alice.privateKey, '', request.publicKeySpki), 'MALFORMED');
    await expectCryptoError(openDeviceApproval(request, REQUEST_ID, approval.approverPublicKeySpki, 'AAAA', alice.spki), 'MALFORMED');
    await expectCryptoError(openDeviceApproval(request, REQUEST_ID, approval.approverPublicKeySpki, approval.copy, '!'), 'MALFORMED');
  });
});

describe('the fingerprint phrase of an approval request', () => {
  // A fixed P-256 SPKI and its phrase, computed by hand from the definition (not by the module).
  const VECTOR_SPKI = 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAESSZAECpGZGZLYv9QlyLQiAfciLW5EgIyTxL2DRIugg0wrGm2yUC41rwGdDo8l85S2iMKTFtt+2GqVBKkYXPwiQ==';
  const VECTOR_PHRASE = 'level pear ladder mountain ripple';

  function byDefinition(spki: string): string {
    const digest = createHash('sha256').update(Buffer.concat([Buffer.from(APPROVAL_PHRASE_LABEL), Buffer.from([0]), Buffer.from(spki, 'base64')])).digest();
    const bits = [...digest.subarray(0, 7)].map((byte) => byte.toString(2).padStart(8, '0')).join('');
    return Array.from({ length: 5 }, (_, i) => wordlist[parseInt(bits.slice(i * 11, i * 11 + 11), 2)]).join(' ');
  }

  it('is five BIP-39 words of SHA-256(label || 0x00 || SPKI), stable for a fixed key', async () => {
    expect(byDefinition(VECTOR_SPKI)).toBe(VECTOR_PHRASE);
    expect(await approvalPhrase(VECTOR_SPKI, wordlist)).toBe(VECTOR_PHRASE);
    expect(await approvalPhrase(VECTOR_SPKI, wordlist)).toBe(VECTOR_PHRASE);
  });

  it('is what both devices compute for the same key, and differs for another key', async () => {
    const request = await generateApprovalRequestKeys();
    const phrase = await approvalPhrase(request.publicKeySpki, wordlist);
    expect(phrase.split(' ')).toHaveLength(5);
    expect(phrase).toBe(byDefinition(request.publicKeySpki));
    const other = await generateApprovalRequestKeys();
    expect(await approvalPhrase(other.publicKeySpki, wordlist)).not.toBe(phrase);
    expect(await approvalPhrase(request.publicKeySpki, wordlist)).not.toBe(await approvalPhrase(VECTOR_SPKI, wordlist));
  });

  it('refuses what is not an ECDH P-256 public key as MALFORMED', async () => {
    const rsa = await account();
    await expectCryptoError(approvalPhrase(rsa.spki, wordlist), 'MALFORMED');
    await expectCryptoError(approvalPhrase('not base64', wordlist), 'MALFORMED');
    await expectCryptoError(approvalPhrase(VECTOR_SPKI, wordlist.slice(1)), 'MALFORMED');
  });
});
