/**
 * The member browser's check of a team folder's signed chain (docs/team-folders.md, the six
 * rules): an honest chain verifies, and each way a hostile server or a rogue member could bend it
 * is refused with TeamManifestInvalidError carrying that rule's reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  encodeManifest,
  parseManifest,
  TeamManifestInvalidError,
  utf8,
  verifyTeamChain,
  type SeenChain,
  type SignedManifestVersion,
  type TeamManifestInvalidReason,
} from '../../crypto/index.ts';
import { epochEntry, FOLDER_ID, hashOf, manifest, member, signed, teamStory, testAccount, type TeamStory, type TestAccount } from './team-fixtures.ts';

let story: TeamStory;
beforeAll(async () => {
  story = await teamStory();
}, 60_000);

function verify(versions: SignedManifestVersion[], viewer: TestAccount, seen: SeenChain = null) {
  return verifyTeamChain({ folderId: FOLDER_ID, versions, viewerKeyHash: viewer.keys.keyHash, seen });
}

async function expectRefused(work: Promise<unknown>, reason: TeamManifestInvalidReason): Promise<TeamManifestInvalidError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TeamManifestInvalidError);
  const refusal = error as TeamManifestInvalidError;
  expect(refusal.code).toBe('TEAM_MANIFEST_INVALID');
  expect(refusal.reason).toBe(reason);
  return refusal;
}

describe('verifyTeamChain: an honest chain', () => {
  it('verifies for each member of the newest version, with its members, epochs and hashes', async () => {
    for (const viewer of [story.alice, story.bob]) {
      const team = await verify(story.chain, viewer);
      expect(team.seq).toBe(2);
      expect(team.currentEpoch).toBe(2);
      expect(team.firstHash).toBe(await hashOf(story.chain[0]!));
      expect(team.headHash).toBe(await hashOf(story.chain[1]!));
      expect(team.members.map((m) => [m.username, m.role])).toEqual([
        ['alice', 'owner'],
        ['bob', 'manager'],
      ]);
      expect(team.epochs.map((e) => [e.epoch, e.keyHash])).toEqual([
        [1, story.epoch1.keyHash],
        [2, story.epoch2.keyHash],
      ]);
      expect(team.viewer.userId).toBe(viewer.userId);
    }
  });

  it('accepts a chain that grew since this browser last saw it', async () => {
    const team = await verify(story.chain, story.alice, { firstHash: await hashOf(story.chain[0]!), seq: 1 });
    expect(team.seq).toBe(2);
  });

  it('encodes the documented key order byte for byte', () => {
    const text = new TextDecoder().decode(encodeManifest(story.v1));
    expect(text.startsWith('{"format":"sealdrop-folder-manifest","version":1,"folder_id":12,"seq":1,"prev":null,"signer":{"user_id":5,"key":"')).toBe(true);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['format', 'version', 'folder_id', 'seq', 'prev', 'signer', 'created_at', 'members', 'epochs', 'current_epoch']);
  });
});

describe('verifyTeamChain refuses', () => {
  it('a forged signature (signature): the server signs a version naming a manager as signer', async () => {
    const forged = await signed(story.v2, story.bob, story.mallory);
    await expectRefused(verify([story.chain[0]!, forged], story.alice), 'signature');
  });

  it('a signer public key that does not hash to the signer key (signature)', async () => {
    const forged = { ...(await signed(story.v2, story.bob, story.mallory)), signerPublicKeySpki: story.mallory.keys.publicKeySpki };
    await expectRefused(verify([story.chain[0]!, forged], story.alice), 'signature');
  });

  it('a signature over other bytes (signature)', async () => {
    const otherSignature = (await signed({ ...story.v1, created_at: '2026-11-25T12:00:01.000Z' }, story.alice)).signature;
    await expectRefused(verify([{ ...story.chain[0]!, signature: otherSignature }], story.alice), 'signature');
  });

  it('a reader signing a version (signer-role)', async () => {
    const v2 = { ...story.v2, signer: { user_id: story.carol.userId, key: story.carol.keys.keyHash } };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.carol)], story.alice), 'signer-role');
  });

  it('the server inserting its own key as a member, signed by itself (signer-role)', async () => {
    const v2 = manifest({
      folderId: FOLDER_ID,
      seq: 2,
      prev: await hashOf(story.chain[0]!),
      signer: story.mallory,
      members: [member(story.alice, 'owner'), member(story.bob, 'manager'), member(story.carol, 'reader'), member(story.mallory, 'manager')],
      epochs: [epochEntry(1, story.epoch1)],
    });
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.mallory)], story.alice), 'signer-role');
  });

  it('a version 1 not signed by its owner (signer-role)', async () => {
    const v1 = { ...story.v1, signer: { user_id: story.bob.userId, key: story.bob.keys.keyHash } };
    await expectRefused(verify([await signed(v1, story.bob)], story.bob), 'signer-role');
  });

  it('a manager signing with a key other than the one listed for them (signer-role)', async () => {
    const v2 = { ...story.v2, signer: { user_id: story.bob.userId, key: story.mallory.keys.keyHash } };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.mallory)], story.alice), 'signer-role');
  });

  it('a seq that skips (chain)', async () => {
    const v3 = { ...story.v2, seq: 3 };
    await expectRefused(verify([story.chain[0]!, await signed(v3, story.bob)], story.alice), 'chain');
  });

  it('a prev that is not the hash of the version before (chain)', async () => {
    const v2 = { ...story.v2, prev: 'ab'.repeat(32) };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.bob)], story.alice), 'chain');
  });

  it('a version 1 that claims to follow another (chain)', async () => {
    const v1 = { ...story.v1, prev: 'ab'.repeat(32) };
    await expectRefused(verify([await signed(v1, story.alice)], story.alice), 'chain');
  });

  it('a manager making themselves owner (chain)', async () => {
    const v2 = { ...story.v2, members: [member(story.alice, 'manager'), member(story.bob, 'owner')] };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.bob)], story.alice), 'chain');
  });

  it('a chain of another folder (folder)', async () => {
    await expectRefused(verifyTeamChain({ folderId: 13, versions: story.chain, viewerKeyHash: story.alice.keys.keyHash, seen: null }), 'folder');
  });

  it('epochs shrinking (epochs)', async () => {
    const v3 = manifest({
      folderId: FOLDER_ID,
      seq: 3,
      prev: await hashOf(story.chain[1]!),
      signer: story.bob,
      members: [member(story.alice, 'owner'), member(story.bob, 'manager')],
      epochs: [epochEntry(1, story.epoch1)],
    });
    await expectRefused(verify([...story.chain, await signed(v3, story.bob)], story.alice), 'epochs');
  });

  it('an earlier epoch changed (epochs)', async () => {
    const v2 = { ...story.v2, epochs: [epochEntry(1, story.epoch2), epochEntry(2, story.epoch1)] };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.bob)], story.alice), 'epochs');
  });

  it('current_epoch that is not the largest epoch (epochs)', async () => {
    const v2 = { ...story.v2, current_epoch: 1 };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.bob)], story.alice), 'epochs');
  });

  it('epochs out of order or with a gap (epochs)', async () => {
    const v1 = { ...story.v1, epochs: [epochEntry(2, story.epoch1)], current_epoch: 2 };
    await expectRefused(verify([await signed(v1, story.alice)], story.alice), 'epochs');
  });

  it('a member removed without a new epoch (epochs)', async () => {
    const v2 = { ...story.v2, epochs: [epochEntry(1, story.epoch1)], current_epoch: 1 };
    await expectRefused(verify([story.chain[0]!, await signed(v2, story.bob)], story.alice), 'epochs');
  });

  it('a viewer who is not a member of the newest version (not-member)', async () => {
    await expectRefused(verify(story.chain, story.carol), 'not-member');
    await expectRefused(verify(story.chain, story.mallory), 'not-member');
  });

  it('a chain shorter than the one this browser saw (rollback)', async () => {
    const seen = { firstHash: await hashOf(story.chain[0]!), seq: 2 };
    // The server replays version 1, in which carol (removed since) was still a member.
    await expectRefused(verify([story.chain[0]!], story.alice, seen), 'rollback');
    await expectRefused(verify([], story.alice, seen), 'rollback');
  });

  it('a chain that forks from the version 1 this browser saw (fork)', async () => {
    const other = await signed({ ...story.v1, created_at: '2026-11-25T12:30:00.000Z' }, story.alice);
    await expectRefused(verify([other], story.alice, { firstHash: await hashOf(story.chain[0]!), seq: 1 }), 'fork');
  });

  it('a chain that keeps version 1 but replaces the version this browser saw (fork, with the remembered head hash)', async () => {
    // carol was a reader of version 1; bob, a manager of version 1, signs another version 2 and a version 3 on it.
    const otherV2 = await signed({ ...story.v2, created_at: '2026-11-25T14:00:00.000Z', epochs: [story.v2.epochs[0]!, { ...story.v2.epochs[1]!, created_at: '2026-11-25T14:00:00.000Z' }] }, story.bob);
    const v3 = await signed({ ...story.v2, seq: 3, prev: await hashOf(otherV2), created_at: '2026-11-25T14:00:01.000Z', epochs: [story.v2.epochs[0]!, { ...story.v2.epochs[1]!, created_at: '2026-11-25T14:00:00.000Z' }] }, story.bob);
    const forked = [story.chain[0]!, otherV2, v3];
    const seen = { firstHash: await hashOf(story.chain[0]!), seq: 2 };
    await expect(verify(forked, story.alice, seen)).resolves.toBeTruthy();
    await expectRefused(verify(forked, story.alice, { ...seen, headHash: await hashOf(story.chain[1]!) }), 'fork');
    await expect(verify(story.chain, story.alice, { ...seen, headHash: await hashOf(story.chain[1]!) })).resolves.toBeTruthy();
  });

  it('an empty chain (malformed)', async () => {
    await expectRefused(verify([], story.alice), 'malformed');
  });
});

describe('parseManifest refuses bytes that are not canonical (malformed)', () => {
  const cases: [string, (text: string) => string][] = [
    ['white space', (text) => text.replace('"seq":1', '"seq": 1')],
    ['another key order', (text) => text.replace('{"format":"sealdrop-folder-manifest","version":1', '{"version":1,"format":"sealdrop-folder-manifest"')],
    ['a duplicate key', (text) => text.replace('"seq":1,', '"seq":2,"seq":1,')],
    ['an extra field', (text) => text.replace('"current_epoch":1}', '"current_epoch":1,"admin":true}')],
    ['1.0 for 1', (text) => text.replace('"seq":1,', '"seq":1.0,')],
    ['an unknown version', (text) => text.replace('"version":1', '"version":2')],
    ['an unknown role', (text) => text.replace('"role":"reader"', '"role":"admin"')],
    ['a short key hash', (text) => text.replace(/"key":"([0-9a-f]{64})"/, '"key":"abcd"')],
    ['two owners', (text) => text.replace('"role":"reader"', '"role":"owner"')],
  ];
  it.each(cases)('%s', (_name, change) => {
    const text = new TextDecoder().decode(encodeManifest(story.v1));
    const altered = change(text);
    expect(altered).not.toBe(text);
    let caught: unknown;
    try {
      parseManifest(utf8(altered), 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TeamManifestInvalidError);
    expect((caught as TeamManifestInvalidError).reason).toBe('malformed');
  });

  it('and a signed non-canonical version is refused in a chain too', async () => {
    const text = new TextDecoder().decode(encodeManifest(story.v1)).replace('"seq":1', '"seq": 1');
    await expectRefused(verify([await signed(utf8(text), story.alice)], story.alice), 'malformed');
  });

  it('takes members with non-ASCII names as JSON.stringify writes them', async () => {
    const zoe: TestAccount = await testAccount(9, 'Zoë 🐝');
    const v1 = manifest({ folderId: FOLDER_ID, seq: 1, prev: null, signer: zoe, members: [member(zoe, 'owner')], epochs: [epochEntry(1, story.epoch1)] });
    const team = await verify([await signed(v1, zoe)], zoe);
    expect(team.viewer.username).toBe('Zoë 🐝');
  });
});
