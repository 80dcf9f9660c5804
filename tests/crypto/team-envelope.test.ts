/**
 * Envelope v1 (docs/team-folders.md): an epoch's private key sealed to a member opens only with
 * that member's key, for that folder and epoch, and only if the key inside is the epoch key of the
 * signed member list; every other case is INTEGRITY, including a server that seals a key of its own
 * to a member's public key (which anyone can do).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  encodeBase64,
  generateEpochKeyPair,
  generateFileKey,
  importPublicKeySpki,
  openEnvelope,
  sealEnvelope,
  unwrapFileKey,
  wrapFileKey,
  exportRawFileKey,
  type EpochKeyPair,
} from '../../crypto/index.ts';
import { expectCryptoError } from './helpers.ts';
import { testAccount, type TestAccount } from './team-fixtures.ts';

let alice: TestAccount;
let bob: TestAccount;
let epoch1: EpochKeyPair;
let foreign: EpochKeyPair;
beforeAll(async () => {
  [alice, bob, epoch1, foreign] = await Promise.all([testAccount(5, 'alice'), testAccount(6, 'bob'), generateEpochKeyPair(), generateEpochKeyPair()]);
}, 60_000);

const FOLDER = 12;

function sealTo(account: TestAccount, pair = epoch1, folderId = FOLDER, epoch = 1): Promise<string> {
  return sealEnvelope(pair.privateKey, { folderId, epoch, memberPublicKeySpki: account.keys.publicKeySpki });
}

function openAs(account: TestAccount, envelope: string, binding: { folderId?: number; epoch?: number; memberKeyHash?: string; epochKeyHash?: string } = {}) {
  return openEnvelope(envelope, account.keys.decryptKey, {
    folderId: binding.folderId ?? FOLDER,
    epoch: binding.epoch ?? 1,
    memberKeyHash: binding.memberKeyHash ?? account.keys.keyHash,
    epochKeyHash: binding.epochKeyHash ?? epoch1.keyHash,
  });
}

describe('envelope v1', () => {
  it('opens for its member to the epoch key, which opens file keys sealed to the epoch public key', async () => {
    const envelope = await sealTo(alice);
    const bytes = Buffer.from(envelope, 'base64');
    expect(bytes[0]).toBe(1);
    // 1 + 256 (RSA-OAEP) + 12 (nonce) + PKCS8 + 16 (tag)
    expect(bytes.length).toBeGreaterThan(1 + 256 + 12 + 16 + 1000);
    const epochKey = await openAs(alice, envelope);
    const fileKey = await generateFileKey();
    const sealed = await wrapFileKey(fileKey, await importPublicKeySpki(epoch1.publicKeySpki));
    const opened = await unwrapFileKey(sealed, epochKey);
    expect(Buffer.from(await exportRawFileKey(opened)).equals(Buffer.from(await exportRawFileKey(fileKey)))).toBe(true);
  });

  it('is INTEGRITY for another member’s private key', async () => {
    await expectCryptoError(openAs(bob, await sealTo(alice), { memberKeyHash: alice.keys.keyHash }), 'INTEGRITY');
    await expectCryptoError(openAs(bob, await sealTo(alice)), 'INTEGRITY');
  });

  it('is INTEGRITY when opened as another folder, epoch or member (the aad)', async () => {
    const envelope = await sealTo(alice);
    await expectCryptoError(openAs(alice, envelope, { folderId: FOLDER + 1 }), 'INTEGRITY');
    await expectCryptoError(openAs(alice, envelope, { epoch: 2 }), 'INTEGRITY');
    await expectCryptoError(openAs(alice, envelope, { memberKeyHash: bob.keys.keyHash }), 'INTEGRITY');
  });

  it('is INTEGRITY when a server seals a key of its own to the member (the key-hash check)', async () => {
    // Correct folder, epoch and member: only the signed list's epoch key hash tells it apart.
    const planted = await sealTo(alice, foreign);
    await expectCryptoError(openAs(alice, planted), 'INTEGRITY');
    await expect(openAs(alice, planted, { epochKeyHash: foreign.keyHash })).resolves.toBeTruthy();
  });

  it('is INTEGRITY for altered, truncated, unknown-version or non-base64 envelopes', async () => {
    const bytes = Buffer.from(await sealTo(alice), 'base64');
    const flip = (offset: number) => {
      const copy = Buffer.from(bytes);
      copy[offset]! ^= 1;
      return encodeBase64(copy);
    };
    await expectCryptoError(openAs(alice, flip(0)), 'INTEGRITY');
    await expectCryptoError(openAs(alice, flip(10)), 'INTEGRITY');
    await expectCryptoError(openAs(alice, flip(1 + 256 + 3)), 'INTEGRITY');
    await expectCryptoError(openAs(alice, flip(bytes.length - 1)), 'INTEGRITY');
    await expectCryptoError(openAs(alice, encodeBase64(bytes.subarray(0, 300))), 'INTEGRITY');
    await expectCryptoError(openAs(alice, 'not base64!'), 'INTEGRITY');
  });

  it('keeps an account key as two non-extractable imports (RSA-OAEP to open, RSA-PSS to sign) and its public key', async () => {
    expect(alice.keys.decryptKey.extractable).toBe(false);
    expect(alice.keys.signingKey.extractable).toBe(false);
    expect(alice.keys.decryptKey.algorithm.name).toBe('RSA-OAEP');
    expect(alice.keys.signingKey.algorithm.name).toBe('RSA-PSS');
    expect(alice.keys.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await importPublicKeySpki(alice.keys.publicKeySpki)).type).toBe('public');
  });

  it('uses a fresh content key and nonce for every seal', async () => {
    expect(await sealTo(alice)).not.toBe(await sealTo(alice));
  });
});
