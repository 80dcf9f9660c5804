/**
 * Accounts, manifests and chains for the team-folder suites, built with crypto/ itself: an account
 * is an RSA key pair kept the way the worker keeps it (accountKeysFrom), a version is signed by
 * its signer's RSA-PSS import. Key generation is the slow part, so suites make their accounts once.
 */
import {
  accountKeysFrom,
  encodeBase64,
  encodeManifest,
  generateEpochKeyPair,
  manifestHash,
  RSA_ALGORITHM,
  signManifest,
  type AccountKeys,
  type EpochKeyPair,
  type ManifestEpoch,
  type ManifestMember,
  type SignedManifestVersion,
  type TeamManifest,
  type TeamMemberRole,
} from '../../crypto/index.ts';

export interface TestAccount {
  readonly userId: number;
  readonly username: string;
  readonly keys: AccountKeys;
}

export async function testAccount(userId: number, username: string): Promise<TestAccount> {
  const pair = await crypto.subtle.generateKey({ ...RSA_ALGORITHM, modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1) }, true, [
    'encrypt',
    'decrypt',
  ]);
  return { userId, username, keys: await accountKeysFrom(pair.privateKey) };
}

export function member(account: TestAccount, role: TeamMemberRole): ManifestMember {
  return { user_id: account.userId, username: account.username, role, key: account.keys.keyHash };
}

export function epochEntry(epoch: number, pair: EpochKeyPair, createdAt = '2026-11-25T12:00:00.000Z'): ManifestEpoch {
  return { epoch, key: pair.keyHash, created_at: createdAt };
}

export function manifest(fields: {
  folderId: number;
  seq: number;
  prev: string | null;
  signer: TestAccount;
  members: ManifestMember[];
  epochs: ManifestEpoch[];
  currentEpoch?: number;
  createdAt?: string;
}): TeamManifest {
  return {
    format: 'sealdrop-folder-manifest',
    version: 1,
    folder_id: fields.folderId,
    seq: fields.seq,
    prev: fields.prev,
    signer: { user_id: fields.signer.userId, key: fields.signer.keys.keyHash },
    created_at: fields.createdAt ?? '2026-11-25T12:00:00.000Z',
    members: fields.members,
    epochs: fields.epochs,
    current_epoch: fields.currentEpoch ?? Math.max(...fields.epochs.map((e) => e.epoch)),
  };
}

/** A version as the server would carry it, signed by `signer` (or by `signWith`, to forge). */
export async function signed(content: TeamManifest | Uint8Array<ArrayBuffer>, signer: TestAccount, signWith: TestAccount = signer): Promise<SignedManifestVersion> {
  const bytes = content instanceof Uint8Array ? content : encodeManifest(content);
  return { manifest: encodeBase64(bytes), signature: await signManifest(bytes, signWith.keys.signingKey), signerPublicKeySpki: signer.keys.publicKeySpki };
}

export function hashOf(version: SignedManifestVersion): Promise<string> {
  return manifestHash(Buffer.from(version.manifest, 'base64'));
}

/**
 * The usual story: alice shares folder 12 with bob (manager) and carol (reader) under epoch 1,
 * then bob removes carol and starts epoch 2.
 */
export interface TeamStory {
  readonly alice: TestAccount;
  readonly bob: TestAccount;
  readonly carol: TestAccount;
  readonly mallory: TestAccount;
  readonly epoch1: EpochKeyPair;
  readonly epoch2: EpochKeyPair;
  readonly v1: TeamManifest;
  readonly v2: TeamManifest;
  readonly chain: SignedManifestVersion[];
}

export const FOLDER_ID = 12;

export async function teamStory(): Promise<TeamStory> {
  const [alice, bob, carol, mallory, epoch1, epoch2] = await Promise.all([
    testAccount(5, 'alice'),
    testAccount(6, 'bob'),
    testAccount(7, 'carol'),
    testAccount(66, 'mallory'),
    generateEpochKeyPair(),
    generateEpochKeyPair(),
  ]);
  const v1 = manifest({
    folderId: FOLDER_ID,
    seq: 1,
    prev: null,
    signer: alice,
    members: [member(alice, 'owner'), member(bob, 'manager'), member(carol, 'reader')],
    epochs: [epochEntry(1, epoch1)],
  });
  const first = await signed(v1, alice);
  const v2 = manifest({
    folderId: FOLDER_ID,
    seq: 2,
    prev: await hashOf(first),
    signer: bob,
    members: [member(alice, 'owner'), member(bob, 'manager')],
    epochs: [epochEntry(1, epoch1), epochEntry(2, epoch2, '2026-11-25T13:00:00.000Z')],
    createdAt: '2026-11-25T13:00:00.000Z',
  });
  return { alice, bob, carol, mallory, epoch1, epoch2, v1, v2, chain: [first, await signed(v2, bob)] };
}
