/**
 * Team folders through the crypto pool in node (workers run in-process, as in pool.test.ts): the
 * owner shares a folder, every member opens it and the file keys sealed to epoch 1; a manager
 * removes a member, which starts epoch 2, and nothing of epoch 2 opens with anything the removed
 * member holds (their account key, their epoch-1 key, their folder handle), checked with node:crypto
 * against every envelope and file key the server stores. A server that bends the answer is refused.
 */
import { constants, createDecipheriv, createHash, createPrivateKey, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeTeamRequest, ShareTeamRequest, TeamAnswer } from '../../contract/team-folders.ts';
import { generateRsaKeyPair, unwrapFileKey, wrapFileKey, wrapPrivateKey } from '../../server/crypto/index.ts';
import {
  CryptoPool,
  TeamManifestInvalidError,
  type FileKeyHandle,
  type MemberInput,
  type PrivateKeyHandle,
  type TeamManifestInvalidReason,
} from '../../workers/index.ts';
import { inProcessWorker } from '../../workers/testing/inProcessWorker.ts';
import { expectCryptoError } from './helpers.ts';

const FOLDER_ID = 12;
const PASSWORD = 'login password';

interface Person {
  readonly userId: number;
  readonly username: string;
  readonly publicKeySpki: string;
  readonly privateKey: KeyObject;
  readonly keyData: { encryptedPrivateKey: string; kdfSalt: string };
}

function person(userId: number, username: string): Person {
  const pair = generateRsaKeyPair();
  return { userId, username, publicKeySpki: pair.publicKeySpki, privateKey: pair.privateKey, keyData: wrapPrivateKey(pair.privateKey, PASSWORD) };
}

function asMember(who: Person, role: MemberInput['role']): MemberInput {
  return { userId: who.userId, username: who.username, role, publicKeySpki: who.publicKeySpki };
}

/** What the server stores for one team folder, and the answer it gives each member. */
class FakeTeamServer {
  manifests: TeamAnswer['manifests'] = [];
  members = new Map<number, { person: Person; role: string }>();
  epochs: TeamAnswer['epochs'] = [];
  envelopes: { user_id: number; epoch: number; envelope: string }[] = [];

  constructor(private readonly people: Person[]) {}

  private signerSpki(manifest: string): string {
    const signer = (JSON.parse(Buffer.from(manifest, 'base64').toString('utf8')) as { signer: { user_id: number } }).signer.user_id;
    return this.people.find((p) => p.userId === signer)!.publicKeySpki;
  }

  private apply(body: { manifest: string; signature: string; envelopes: ShareTeamRequest['envelopes'] }, epoch?: { epoch: number; public_key_spki: string }): void {
    this.manifests.push({ manifest: body.manifest, signature: body.signature, signer_public_key_spki: this.signerSpki(body.manifest) });
    if (epoch) this.epochs.push({ ...epoch, created_at: new Date().toISOString() });
    this.envelopes.push(...body.envelopes);
    const parsed = JSON.parse(Buffer.from(body.manifest, 'base64').toString('utf8')) as { members: { user_id: number; role: string }[] };
    this.members = new Map(parsed.members.map((m) => [m.user_id, { person: this.people.find((p) => p.userId === m.user_id)!, role: m.role }]));
  }

  share(body: ShareTeamRequest): void {
    this.apply(body, body.epoch);
  }

  change(body: ChangeTeamRequest): void {
    expect(body.expected_seq).toBe(this.manifests.length);
    this.apply(body, body.new_epoch);
  }

  answerFor(who: Person): TeamAnswer {
    return {
      manifests: [...this.manifests],
      members: [...this.members.values()].map(({ person: p, role }) => ({
        user_id: p.userId,
        username: p.username,
        display_name: null,
        role: role as 'owner' | 'manager' | 'reader',
        public_key_spki: p.publicKeySpki,
        is_disabled: false,
        notify: true,
      })),
      epochs: [...this.epochs],
      my_envelopes: this.envelopes.filter((e) => e.user_id === who.userId).map(({ epoch, envelope }) => ({ epoch, envelope })),
      current_epoch: this.epochs.length,
    };
  }

  epochKey(epoch: number): string {
    return this.epochs.find((e) => e.epoch === epoch)!.public_key_spki;
  }
}

/** Opens an envelope with node:crypto (docs/team-folders.md), to try a removed member's keys on it. */
function openEnvelopeWithNode(envelope: string, privateKey: KeyObject, aad: string): KeyObject {
  const bytes = Buffer.from(envelope, 'base64');
  const k = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes.subarray(1, 257));
  const nonce = bytes.subarray(257, 269);
  const sealed = bytes.subarray(269);
  const decipher = createDecipheriv('aes-256-gcm', k, nonce);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const pkcs8 = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

function keyHash(spki: string): string {
  return createHash('sha256').update(Buffer.from(spki, 'base64')).digest('hex');
}

let alice: Person;
let bob: Person;
let carol: Person;
let dave: Person;
let mallory: Person;
/** A key pair of the test's own, to read a FileKeyHandle's raw bytes (pool.wrapFileKey, then node). */
let reader: ReturnType<typeof generateRsaKeyPair>;

beforeAll(() => {
  [alice, bob, carol, dave, mallory] = [person(5, 'alice'), person(6, 'bob'), person(7, 'carol'), person(8, 'dave'), person(66, 'mallory')];
  reader = generateRsaKeyPair();
});

let pool: CryptoPool | undefined;
afterEach(() => pool?.terminate());

async function rawOf(handle: FileKeyHandle): Promise<Buffer> {
  return unwrapFileKey(reader.privateKey, await pool!.wrapFileKey(handle, reader.publicKeySpki));
}

async function expectRefused(work: Promise<unknown>, reason: TeamManifestInvalidReason): Promise<TeamManifestInvalidError> {
  const caught = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(TeamManifestInvalidError);
  expect((caught as TeamManifestInvalidError).code).toBe('TEAM_MANIFEST_INVALID');
  expect((caught as TeamManifestInvalidError).reason).toBe(reason);
  return caught as TeamManifestInvalidError;
}

describe('team folders through the crypto pool', () => {
  it('share, open as each member, remove a member: epoch 2 opens for the others and for nothing the removed member holds', async () => {
    pool = CryptoPool.create({ size: 2, createWorker: inProcessWorker });
    const server = new FakeTeamServer([alice, bob, carol, dave, mallory]);
    const keys = new Map<number, PrivateKeyHandle>();
    for (const who of [alice, bob, carol, dave]) keys.set(who.userId, await pool.unlockPrivateKey(who.keyData, PASSWORD));

    // A file uploaded before sharing, sealed to alice's account key.
    const before = randomBytes(32);
    const share = await pool.shareFolder(keys.get(alice.userId)!, {
      folderId: FOLDER_ID,
      owner: asMember(alice, 'owner'),
      members: [asMember(bob, 'manager'), asMember(carol, 'reader')],
      files: [{ file_id: 1, encrypted_key: wrapFileKey(alice.publicKeySpki, before) }],
    });
    expect(share.epoch.epoch).toBe(1);
    expect(share.envelopes.map((e) => [e.user_id, e.epoch])).toEqual([
      [5, 1],
      [6, 1],
      [7, 1],
    ]);
    expect(share.rekeyed_files.map((f) => f.file_id)).toEqual([1]);
    server.share(share);

    // An upload after sharing, sealed to epoch 1's public key like an upload page does.
    const during = randomBytes(32);
    const duringKey = wrapFileKey(server.epochKey(1), during);

    const opened = new Map<number, Awaited<ReturnType<CryptoPool['openTeam']>>>();
    for (const who of [alice, bob, carol]) {
      const result = await pool.openTeam(keys.get(who.userId)!, server.answerFor(who), null, FOLDER_ID);
      opened.set(who.userId, result);
      expect(result.team.members.map((m) => [m.userId, m.role, m.keyHash])).toEqual([
        [5, 'owner', keyHash(alice.publicKeySpki)],
        [6, 'manager', keyHash(bob.publicKeySpki)],
        [7, 'reader', keyHash(carol.publicKeySpki)],
      ]);
      expect(result.team.currentEpoch).toBe(1);
      expect(result.team.heldEpochs).toEqual([1]);
      expect(result.team.unlisted).toEqual([]);
      expect(await rawOf(await pool.unwrapFolderFileKey(result.folderKeys, 1, share.rekeyed_files[0]!.encrypted_key))).toEqual(before);
      expect(await rawOf(await pool.unwrapFolderFileKey(result.folderKeys, 1, duringKey))).toEqual(during);
    }
    const carolFirstHash = opened.get(carol.userId)!.team.firstHash;

    // bob (manager) removes carol: a new epoch, sealed to alice and bob only.
    const bobTeam = opened.get(bob.userId)!;
    const removal = await pool.changeTeam(keys.get(bob.userId)!, bobTeam.folderKeys, bobTeam.team, { remove: [carol.userId] });
    expect(removal.expected_seq).toBe(1);
    expect(removal.new_epoch?.epoch).toBe(2);
    expect(removal.envelopes.map((e) => [e.user_id, e.epoch]).sort()).toEqual([
      [5, 2],
      [6, 2],
    ]);
    server.change(removal);

    const after = randomBytes(32);
    const afterKey = wrapFileKey(server.epochKey(2), after);
    for (const who of [alice, bob]) {
      const { team, folderKeys } = await pool.openTeam(keys.get(who.userId)!, server.answerFor(who), { firstHash: carolFirstHash, seq: 1 }, FOLDER_ID);
      expect(team.seq).toBe(2);
      expect(team.currentEpoch).toBe(2);
      expect(team.heldEpochs).toEqual([1, 2]);
      expect(team.members.map((m) => m.userId)).toEqual([5, 6]);
      expect(await rawOf(await pool.unwrapFolderFileKey(folderKeys, 2, afterKey))).toEqual(after);
      expect(await rawOf(await pool.unwrapFolderFileKey(folderKeys, 1, duringKey))).toEqual(during);
    }

    // carol: refused as a member of the new version, and her old handle holds no epoch 2.
    await expectRefused(pool.openTeam(keys.get(carol.userId)!, server.answerFor(carol), { firstHash: carolFirstHash, seq: 1 }, FOLDER_ID), 'not-member');
    const carolKeys = opened.get(carol.userId)!.folderKeys;
    await expectCryptoError(pool.unwrapFolderFileKey(carolKeys, 2, afterKey), 'WRONG_KEY');
    await expectCryptoError(pool.unwrapFolderFileKey(carolKeys, 1, afterKey), 'WRONG_KEY');
    await expectCryptoError(pool.unwrapFileKey(keys.get(carol.userId)!, afterKey), 'WRONG_KEY');
    // What she still reads: everything sealed to epoch 1 (nothing is re-encrypted).
    expect(await rawOf(await pool.unwrapFolderFileKey(carolKeys, 1, duringKey))).toEqual(during);

    // Every byte the server holds for epoch 2, tried with every key carol has.
    expect(server.envelopes.filter((e) => e.user_id === carol.userId).map((e) => e.epoch)).toEqual([1]);
    const carolEpoch1 = openEnvelopeWithNode(
      server.envelopes.find((e) => e.user_id === carol.userId)!.envelope,
      carol.privateKey,
      `sealdrop folder key v1:${FOLDER_ID}:1:${keyHash(carol.publicKeySpki)}`,
    );
    for (const key of [carol.privateKey, carolEpoch1]) {
      for (const envelope of server.envelopes.filter((e) => e.epoch === 2)) {
        expect(() => privateDecrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(envelope.envelope, 'base64').subarray(1, 257))).toThrow();
      }
      expect(() => unwrapFileKey(key, afterKey)).toThrow();
    }

    // alice adds dave: every epoch sealed to him, and he reads the whole history.
    const aliceTeam = await pool.openTeam(keys.get(alice.userId)!, server.answerFor(alice), null, FOLDER_ID);
    const addition = await pool.changeTeam(keys.get(alice.userId)!, aliceTeam.folderKeys, aliceTeam.team, { add: [asMember(dave, 'reader')] });
    expect(addition.new_epoch).toBeUndefined();
    expect(addition.envelopes.map((e) => [e.user_id, e.epoch])).toEqual([
      [8, 1],
      [8, 2],
    ]);
    server.change(addition);
    const daveTeam = await pool.openTeam(keys.get(dave.userId)!, server.answerFor(dave), null, FOLDER_ID);
    expect(daveTeam.team.heldEpochs).toEqual([1, 2]);
    expect(await rawOf(await pool.unwrapFolderFileKey(daveTeam.folderKeys, 1, share.rekeyed_files[0]!.encrypted_key))).toEqual(before);
    expect(await rawOf(await pool.unwrapFolderFileKey(daveTeam.folderKeys, 2, afterKey))).toEqual(after);

    // A role change: a new version, no keys; a reader cannot sign one.
    const roleChange = await pool.changeTeam(keys.get(alice.userId)!, aliceTeam.folderKeys, aliceTeam.team, { setRole: [{ userId: bob.userId, role: 'reader' }] });
    expect(roleChange.new_epoch).toBeUndefined();
    expect(roleChange.envelopes).toEqual([]);
    await expectCryptoError(pool.changeTeam(keys.get(dave.userId)!, daveTeam.folderKeys, daveTeam.team, { remove: [bob.userId] }), 'MALFORMED');

    // Released folder keys open nothing more.
    await pool.releaseKey(daveTeam.folderKeys);
    await expectCryptoError(pool.unwrapFolderFileKey(daveTeam.folderKeys, 1, duringKey), 'UNKNOWN_KEY');
  }, 120_000);

  it('refuses what a hostile server sends: a member row of its own, a swapped member key, a rollback, another folder, a planted epoch key, an epoch public key of its own', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker });
    const server = new FakeTeamServer([alice, bob, carol, mallory]);
    const aliceKey = await pool.unlockPrivateKey(alice.keyData, PASSWORD);
    const share = await pool.shareFolder(aliceKey, { folderId: FOLDER_ID, owner: asMember(alice, 'owner'), members: [asMember(bob, 'reader'), asMember(carol, 'reader')], files: [] });
    server.share(share);
    const honest = server.answerFor(alice);
    const { team } = await pool.openTeam(aliceKey, honest, null, FOLDER_ID);
    const seen = { firstHash: team.firstHash, seq: team.seq };

    // The server lists its own key as a member (the signed list does not): named in the refusal.
    const withMallory: TeamAnswer = {
      ...honest,
      members: [...honest.members, { user_id: 66, username: 'mallory', display_name: null, role: 'manager', public_key_spki: mallory.publicKeySpki, is_disabled: false, notify: true }],
    };
    const refusal = await expectRefused(pool.openTeam(aliceKey, withMallory, seen, FOLDER_ID), 'unlisted-member');
    expect(refusal.unlisted).toEqual([{ userId: 66, username: 'mallory' }]);

    // It swaps bob's public key for its own: the folder still opens, but nothing new is sealed to that key.
    const swapped: TeamAnswer = { ...honest, members: honest.members.map((m) => (m.user_id === bob.userId ? { ...m, public_key_spki: mallory.publicKeySpki } : m)) };
    const opened = await pool.openTeam(aliceKey, swapped, seen, FOLDER_ID);
    const blocked = await expectRefused(pool.changeTeam(aliceKey, opened.folderKeys, opened.team, { remove: [carol.userId] }), 'member-key');
    expect(blocked.unlisted).toEqual([{ userId: bob.userId, username: 'bob' }]);
    // Removing bob and adding him again with the key his fingerprint confirms replaces it, in a new epoch.
    const replaced = await pool.changeTeam(aliceKey, opened.folderKeys, opened.team, { remove: [bob.userId, carol.userId], add: [asMember(bob, 'reader')] });
    expect(replaced.new_epoch?.epoch).toBe(2);
    expect(replaced.envelopes.map((e) => [e.user_id, e.epoch]).sort()).toEqual([
      [5, 2],
      [6, 1],
      [6, 2],
    ]);
    server.change(replaced);
    await expect(pool.openTeam(aliceKey, server.answerFor(alice), seen, FOLDER_ID)).resolves.toBeTruthy();

    // A rollback to a chain shorter than the one seen, and another folder's chain served for this folder.
    await expectRefused(pool.openTeam(aliceKey, honest, { firstHash: seen.firstHash, seq: 2 }, FOLDER_ID), 'rollback');
    await expectRefused(pool.openTeam(aliceKey, honest, null, FOLDER_ID + 1), 'folder');

    // A key of the server's own sealed to alice's public key (right folder, epoch and member) in place of epoch 1's envelope.
    const bait = await pool.shareFolder(aliceKey, { folderId: FOLDER_ID, owner: asMember(alice, 'owner'), members: [], files: [] });
    const planted: TeamAnswer = { ...honest, my_envelopes: [{ epoch: 1, envelope: bait.envelopes[0]!.envelope }] };
    await expectCryptoError(pool.openTeam(aliceKey, planted, seen, FOLDER_ID), 'INTEGRITY');
    // And its own public key in place of epoch 1's, for uploads to seal to.
    await expectRefused(pool.openTeam(aliceKey, { ...honest, epochs: [{ ...honest.epochs[0]!, public_key_spki: bait.epoch.public_key_spki }] }, seen, FOLDER_ID), 'epoch-key');
  }, 120_000);

  it('gives every team call a time limit', async () => {
    pool = CryptoPool.create({ size: 1, createWorker: inProcessWorker, teamLimits: { baseMs: 1, perEnvelopeMs: 0, perFileMs: 0 } });
    const aliceKey = await pool.unlockPrivateKey(alice.keyData, PASSWORD);
    await expectCryptoError(pool.shareFolder(aliceKey, { folderId: FOLDER_ID, owner: asMember(alice, 'owner'), members: [], files: [] }), 'WORKER_FAILED');
  }, 60_000);
});
