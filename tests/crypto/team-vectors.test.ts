/**
 * Team folders across the two implementations, which share no code (docs/architecture.md): a chain
 * signed by crypto/ verifies in server/crypto and one signed with node:crypto verifies in crypto/;
 * the same forgeries are refused by both; an envelope sealed by either opens in the other, and the
 * opened epoch key opens a file key sealed to the epoch's public key.
 */
import { constants, createHash, createPublicKey, privateDecrypt, publicEncrypt, randomBytes, sign, createCipheriv, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accountKeysFrom,
  encodeManifest,
  exportRawFileKey,
  generateEpochKeyPair,
  importPublicKeySpki,
  openEnvelope as browserOpenEnvelope,
  RSA_ALGORITHM,
  sealEnvelope,
  TeamManifestInvalidError,
  unwrapFileKey as browserUnwrapFileKey,
  verifyTeamChain,
  type SignedManifestVersion,
  type TeamManifest,
} from '../../crypto/index.ts';
import {
  generateRsaKeyPair,
  keyHash,
  manifestBytes,
  openEnvelope as nodeOpenEnvelope,
  signedBytes,
  TeamManifestError,
  unwrapFileKey as nodeUnwrapFileKey,
  verifyChain,
  wrapFileKey as nodeWrapFileKey,
  type TeamManifest as NodeTeamManifest,
} from '../../server/crypto/index.ts';
import { epochEntry, FOLDER_ID, hashOf, manifest, member, signed, type TestAccount } from './team-fixtures.ts';

/** An account in both shapes: node's KeyObject and crypto/'s worker keys, of one RSA key. */
interface DualAccount extends TestAccount {
  readonly nodePrivateKey: KeyObject;
}

async function dualAccount(userId: number, username: string): Promise<DualAccount> {
  const pair = generateRsaKeyPair();
  const pkcs8 = new Uint8Array(pair.privateKey.export({ type: 'pkcs8', format: 'der' }));
  const extractable = await crypto.subtle.importKey('pkcs8', pkcs8, RSA_ALGORITHM, true, ['decrypt']);
  const keys = await accountKeysFrom(extractable);
  expect(keys.publicKeySpki).toBe(pair.publicKeySpki);
  return { userId, username, keys, nodePrivateKey: pair.privateKey };
}

/** A version signed with node:crypto over server/crypto's encoding (the other implementation's signer). */
function nodeSigned(content: NodeTeamManifest, signer: DualAccount): SignedManifestVersion {
  const bytes = manifestBytes(content);
  const signature = sign('sha256', signedBytes(bytes), { key: signer.nodePrivateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
  return { manifest: bytes.toString('base64'), signature: signature.toString('base64'), signerPublicKeySpki: signer.keys.publicKeySpki };
}

function asEntries(versions: SignedManifestVersion[]) {
  return versions.map((v) => ({ manifest: v.manifest, signature: v.signature, signer_public_key_spki: v.signerPublicKeySpki }));
}

/** Envelope v1 sealed with node:crypto, written from docs/team-folders.md. */
function nodeSealEnvelope(epochPkcs8: Buffer, memberSpki: string, folderId: number, epoch: number): string {
  const k = randomBytes(32);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k, nonce);
  cipher.setAAD(Buffer.from(`sealdrop folder key v1:${folderId}:${epoch}:${keyHash(memberSpki)}`, 'utf8'));
  const sealed = Buffer.concat([cipher.update(epochPkcs8), cipher.final(), cipher.getAuthTag()]);
  const memberKey = createPublicKey({ key: Buffer.from(memberSpki, 'base64'), format: 'der', type: 'spki' });
  const wrapped = publicEncrypt({ key: memberKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, k);
  return Buffer.concat([Buffer.from([1]), wrapped, nonce, sealed]).toString('base64');
}

let alice: DualAccount;
let bob: DualAccount;
let carol: DualAccount;
let mallory: DualAccount;
let v1: TeamManifest;
let v2: TeamManifest;
let chain: SignedManifestVersion[];

beforeAll(async () => {
  [alice, bob, carol, mallory] = await Promise.all([dualAccount(5, 'alice'), dualAccount(6, 'bob'), dualAccount(7, 'carol'), dualAccount(66, 'mallory')]);
  const [e1, e2] = await Promise.all([generateEpochKeyPair(), generateEpochKeyPair()]);
  v1 = manifest({ folderId: FOLDER_ID, seq: 1, prev: null, signer: alice, members: [member(alice, 'owner'), member(bob, 'manager'), member(carol, 'reader')], epochs: [epochEntry(1, e1)] });
  const first = await signed(v1, alice);
  v2 = manifest({
    folderId: FOLDER_ID,
    seq: 2,
    prev: await hashOf(first),
    signer: bob,
    members: [member(alice, 'owner'), member(bob, 'manager')],
    epochs: [epochEntry(1, e1), epochEntry(2, e2, '2026-11-25T13:00:00.000Z')],
    createdAt: '2026-11-25T13:00:00.000Z',
  });
  chain = [first, await signed(v2, bob)];
}, 60_000);

describe('manifest chains across implementations', () => {
  it('both encode a manifest to the same bytes', () => {
    expect(Buffer.from(encodeManifest(v2)).equals(manifestBytes(v2 as NodeTeamManifest))).toBe(true);
  });

  it('a chain signed by crypto/ verifies in server/crypto, with the same hashes', async () => {
    const browser = await verifyTeamChain({ folderId: FOLDER_ID, versions: chain, viewerKeyHash: alice.keys.keyHash, seen: null });
    const node = verifyChain(FOLDER_ID, asEntries(chain), { userId: alice.userId, keyHash: alice.keys.keyHash });
    expect(node.firstHash).toBe(browser.firstHash);
    expect(node.headHash).toBe(browser.headHash);
    expect(node.head).toEqual(browser.head);
  });

  it('a chain signed with node:crypto verifies in crypto/', async () => {
    const first = nodeSigned(v1 as NodeTeamManifest, alice);
    const second = nodeSigned({ ...(v2 as NodeTeamManifest), prev: createHash('sha256').update(Buffer.from(first.manifest, 'base64')).digest('hex') }, bob);
    const team = await verifyTeamChain({ folderId: FOLDER_ID, versions: [first, second], viewerKeyHash: bob.keys.keyHash, seen: null });
    expect(team.seq).toBe(2);
    expect(verifyChain(FOLDER_ID, asEntries([first, second]), { userId: bob.userId, keyHash: bob.keys.keyHash }).headHash).toBe(team.headHash);
  });

  const forgeries: [string, () => Promise<SignedManifestVersion[]>, string, string][] = [
    ['a forged signature', async () => [chain[0]!, await signed(v2, bob, mallory)], 'signature', 'BAD_SIGNATURE'],
    ['a reader signing', async () => [chain[0]!, await signed({ ...v2, signer: { user_id: carol.userId, key: carol.keys.keyHash } }, carol)], 'signer-role', 'SIGNER_NOT_ALLOWED'],
    ['the server signing its own membership', async () => [chain[0]!, await signed({ ...v2, signer: { user_id: mallory.userId, key: mallory.keys.keyHash }, members: [...v2.members, member(mallory, 'manager')] }, mallory)], 'signer-role', 'SIGNER_NOT_ALLOWED'],
    ['a skipped seq', async () => [chain[0]!, await signed({ ...v2, seq: 3 }, bob)], 'chain', 'BROKEN_LINK'],
    ['a wrong prev', async () => [chain[0]!, await signed({ ...v2, prev: '00'.repeat(32) }, bob)], 'chain', 'BROKEN_LINK'],
    ['a changed epoch', async () => [chain[0]!, await signed({ ...v2, epochs: [{ ...v2.epochs[0]!, created_at: '2026-01-01T00:00:00.000Z' }, v2.epochs[1]!] }, bob)], 'epochs', 'EPOCHS_CHANGED'],
    ['a current_epoch that is not the largest', async () => [chain[0]!, await signed({ ...v2, current_epoch: 1 }, bob)], 'epochs', 'MALFORMED'],
    ['a new owner', async () => [chain[0]!, await signed({ ...v2, members: [member(alice, 'manager'), member(bob, 'owner')] }, bob)], 'chain', 'OWNER_CHANGED'],
  ];
  it.each(forgeries)('%s is refused by both', async (_name, build, browserReason, nodeReason) => {
    const versions = await build();
    const browser = await verifyTeamChain({ folderId: FOLDER_ID, versions, viewerKeyHash: alice.keys.keyHash, seen: null }).catch((error: unknown) => error);
    expect(browser).toBeInstanceOf(TeamManifestInvalidError);
    expect((browser as TeamManifestInvalidError).reason).toBe(browserReason);
    let node: unknown;
    try {
      verifyChain(FOLDER_ID, asEntries(versions), { userId: alice.userId, keyHash: alice.keys.keyHash });
    } catch (error) {
      node = error;
    }
    expect(node).toBeInstanceOf(TeamManifestError);
    expect((node as TeamManifestError).reason).toBe(nodeReason);
  });

  it('a removed member, a rollback and a fork are refused by both', async () => {
    const seen = { firstHash: await hashOf(chain[0]!), seq: 2 };
    const node = (versions: SignedManifestVersion[], who: DualAccount, s: typeof seen | null) => () => verifyChain(FOLDER_ID, asEntries(versions), { userId: who.userId, keyHash: who.keys.keyHash }, s);
    expect(node(chain, carol, null)).toThrow(TeamManifestError);
    await expect(verifyTeamChain({ folderId: FOLDER_ID, versions: chain, viewerKeyHash: carol.keys.keyHash, seen: null })).rejects.toMatchObject({ reason: 'not-member' });
    expect(node([chain[0]!], alice, seen)).toThrow(TeamManifestError);
    await expect(verifyTeamChain({ folderId: FOLDER_ID, versions: [chain[0]!], viewerKeyHash: alice.keys.keyHash, seen })).rejects.toMatchObject({ reason: 'rollback' });
    const other = [await signed({ ...v1, created_at: '2026-11-25T12:00:01.000Z' }, alice)];
    expect(node(other, alice, { ...seen, seq: 1 })).toThrow(TeamManifestError);
    await expect(verifyTeamChain({ folderId: FOLDER_ID, versions: other, viewerKeyHash: alice.keys.keyHash, seen: { ...seen, seq: 1 } })).rejects.toMatchObject({ reason: 'fork' });
  });
});

describe('envelopes across implementations', () => {
  it('sealed by crypto/, opened by server/crypto; the epoch key opens a file key sealed to the epoch', async () => {
    const epoch = await generateEpochKeyPair();
    const envelope = await sealEnvelope(epoch.privateKey, { folderId: FOLDER_ID, epoch: 3, memberPublicKeySpki: bob.keys.publicKeySpki });
    const opened = nodeOpenEnvelope(bob.nodePrivateKey, { folderId: FOLDER_ID, epoch: 3, memberKeyHash: bob.keys.keyHash, epochKeyHash: epoch.keyHash, envelope });
    const raw = randomBytes(32);
    const wrapped = nodeWrapFileKey(epoch.publicKeySpki, raw);
    expect(privateDecrypt({ key: opened, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(wrapped, 'base64')).equals(raw)).toBe(true);
    // The other folder, epoch, member or epoch key: refused there too.
    for (const wrong of [{ folderId: FOLDER_ID + 1 }, { epoch: 2 }, { memberKeyHash: alice.keys.keyHash }, { epochKeyHash: '00'.repeat(32) }]) {
      expect(() => nodeOpenEnvelope(bob.nodePrivateKey, { folderId: FOLDER_ID, epoch: 3, memberKeyHash: bob.keys.keyHash, epochKeyHash: epoch.keyHash, envelope, ...wrong })).toThrow();
    }
  });

  it('sealed with node:crypto, opened by crypto/; a file key sealed by crypto/ to the epoch opens in node', async () => {
    const epoch = generateRsaKeyPair();
    const envelope = nodeSealEnvelope(epoch.privateKey.export({ type: 'pkcs8', format: 'der' }), carol.keys.publicKeySpki, FOLDER_ID, 1);
    const epochKey = await browserOpenEnvelope(envelope, carol.keys.decryptKey, { folderId: FOLDER_ID, epoch: 1, memberKeyHash: carol.keys.keyHash, epochKeyHash: keyHash(epoch.publicKeySpki) });
    const raw = randomBytes(32);
    const fileKey = await browserUnwrapFileKey(nodeWrapFileKey(epoch.publicKeySpki, raw), epochKey);
    expect(Buffer.from(await exportRawFileKey(fileKey)).equals(raw)).toBe(true);
    const browserWrapped = await crypto.subtle.wrapKey('raw', fileKey, await importPublicKeySpki(epoch.publicKeySpki), RSA_ALGORITHM);
    expect(nodeUnwrapFileKey(epoch.privateKey, Buffer.from(browserWrapped).toString('base64')).equals(raw)).toBe(true);
  });
});
