/**
 * Team folders inside a crypto worker (docs/team-folders.md): opening a folder's signed chain and
 * envelopes, opening file keys sealed to an epoch, and writing the bodies of a share and of a
 * change. Epoch private keys stay in the worker's KeyStore (kind 'folder'); the page gets handles.
 *
 * ---- For the page (call through workers/index.ts; every call has a time limit, see pool.ts) ----
 *
 *   import { CryptoPool, isTeamManifestInvalidError, type FolderKeysHandle, type VerifiedTeam } from '../../workers/index.ts';
 *
 *   // GET /folders/{id}/team answered `answer` (manifests not empty); `seen` is what this account
 *   // remembered for this folder (null the first time). Pass the folder id you asked for: a chain
 *   // of any other folder is then refused ('folder').
 *   const { team, folderKeys } = await pool.openTeam(privateKey, answer, seen, folderId);
 *   remember({ firstHash: team.firstHash, seq: team.seq, headHash: team.headHash });   // only after success
 *   //   seen = { firstHash, seq, headHash? }: keep headHash too; without it a chain that keeps
 *   //   version 1 but branches later (a manager removed since, signing with the server) is not
 *   //   told from the real one (rule 6 with the head hash: crypto/team-chain.ts).
 *   //   throws TeamManifestInvalidError: code 'TEAM_MANIFEST_INVALID', `reason` one of
 *   //   TEAM_MANIFEST_INVALID_REASONS ('signature', 'chain', 'folder', 'signer-role', 'epochs',
 *   //   'not-member', 'rollback', 'fork', 'unlisted-member', 'epoch-key', 'malformed'), `seq` the
 *   //   version refused, `unlisted` [{ userId, username }] for 'unlisted-member' (rows the server
 *   //   lists that the newest signed version does not: name them in the warning).
 *   //   throws CryptoError INTEGRITY when one of my_envelopes does not open to the signed epoch key.
 *   //   team.unlisted is always [] on success (a server row outside the list is a refusal).
 *   //   team.heldEpochs: the epochs this account's envelopes opened.
 *
 *   const fileKey = await pool.unwrapFolderFileKey(folderKeys, file.key_epoch, file.encrypted_key);
 *   //   a FileKeyHandle exactly like pool.unwrapFileKey's; WRONG_KEY for an epoch this account
 *   //   does not hold or a key not sealed to it.
 *
 *   const shareBody = await pool.shareFolder(privateKey, { folderId, owner, members, files });
 *   //   body of POST /folders/{id}/team. owner/members: MemberInput { userId, username, role,
 *   //   publicKeySpki } (owner.publicKeySpki must be this account's key); files: every file of the
 *   //   folder as GET /folders/{id}/files lists it ({ file_id, encrypted_key }, sealed to the owner).
 *
 *   const changeBody = await pool.changeTeam(privateKey, folderKeys, team, { add, remove, setRole });
 *   //   body of POST /folders/{id}/team/versions (expected_seq = team.seq). `team` must be the one
 *   //   openTeam returned with these folderKeys. remove => new epoch sealed to every remaining
 *   //   member; add => every epoch sealed to each new member (remove and add of one user id in one
 *   //   change replaces their key). Throws TeamManifestInvalidError 'member-key' (with `unlisted`)
 *   //   when a remaining member's server key is not the signed one; CryptoError MALFORMED for a
 *   //   change that is not allowed (signer not owner/manager, owner removed, unknown member...).
 *   //   After TEAM_CHANGED (409): openTeam again and redo the change on the new team.
 *
 *   await pool.releaseKey(folderKeys);      // when the folder page closes or the account locks
 *
 * Everything the page shows (members, roles, epochs, fingerprints to compute from MemberInput
 * keys) comes from `team`, never from the server's member rows.
 */
import {
  CryptoError,
  decodeManifestText,
  encodeBase64,
  encodeManifest,
  generateEpochKeyPair,
  importPublicKeySpki,
  openEnvelope,
  parseManifest,
  publicKeyHashOfSpki,
  sealEnvelope,
  signManifest,
  TeamManifestInvalidError,
  unwrapFileKey,
  verifyTeamChain,
  wrapFileKey,
  type ManifestEpoch,
  type ManifestMember,
  type SeenChain,
  type TeamManifest,
  type UnlistedMember,
  type VerifiedEpoch,
  type VerifiedMember,
  type VerifiedTeamChain,
} from '../crypto/index.ts';
import type { ChangeTeamRequest, EnvelopeBody, ShareTeamRequest, TeamAnswer, TeamRole } from '../contract/team-folders.ts';
import type { KeyStore } from './key-store.ts';
import type { FolderKeyRing } from './team-key-ring.ts';

export type { SeenChain };

/** The verified view of a team folder: produced only here, after the whole chain was checked. */
export interface VerifiedTeam extends Pick<VerifiedTeamChain, 'folderId' | 'seq' | 'firstHash' | 'headHash' | 'members' | 'epochs' | 'currentEpoch'> {
  /** Always empty on success: member rows outside the signed list make openTeam refuse. */
  readonly unlisted: readonly UnlistedMember[];
  /** The epochs whose private keys this account's envelopes opened. */
  readonly heldEpochs: readonly number[];
}

export interface MemberInput {
  readonly userId: number;
  readonly username: string;
  readonly role: TeamRole;
  /** base64 SPKI of the member's account key (compare its fingerprint out of band before signing). */
  readonly publicKeySpki: string;
}

export interface ShareFolderInput {
  readonly folderId: number;
  readonly owner: MemberInput;
  readonly members: readonly MemberInput[];
  readonly files: readonly { readonly file_id: number; readonly encrypted_key: string }[];
}

export interface TeamChange {
  readonly add?: readonly MemberInput[];
  readonly remove?: readonly number[];
  readonly setRole?: readonly { readonly userId: number; readonly role: 'manager' | 'reader' }[];
}

export interface OpenedTeam {
  readonly team: VerifiedTeam;
  readonly folderKeysId: string;
}

function notAllowed(message: string): CryptoError {
  return new CryptoError('MALFORMED', `team change refused: ${message}`);
}

/** The folder id the chain names, for a caller that did not say which folder it asked for. */
function folderIdOfChain(answer: TeamAnswer): number {
  const first = answer.manifests[0];
  return first ? parseManifest(decodeManifestText(first.manifest, 1), 1).folder_id : 0;
}

export async function openTeam(keys: KeyStore, privateKeyId: string, answer: TeamAnswer, seen: SeenChain, expectedFolderId?: number): Promise<OpenedTeam> {
  const account = keys.account(privateKeyId);
  const folderId = expectedFolderId ?? folderIdOfChain(answer);
  const chain = await verifyTeamChain({
    folderId,
    versions: answer.manifests.map((entry) => ({ manifest: entry.manifest, signature: entry.signature, signerPublicKeySpki: entry.signer_public_key_spki })),
    viewerKeyHash: account.keyHash,
    seen,
  });

  // The server's member rows: exactly the signed members, with the signed keys.
  const unlisted: UnlistedMember[] = [];
  const memberKeys = new Map<number, string>();
  for (const row of answer.members) {
    const listed = chain.members.find((member) => member.userId === row.user_id);
    if (!listed) unlisted.push({ userId: row.user_id, username: row.username });
    else if (row.public_key_spki !== null && (await publicKeyHashOfSpki(row.public_key_spki).catch(() => '')) === listed.keyHash) {
      memberKeys.set(row.user_id, row.public_key_spki);
    }
  }
  if (unlisted.length > 0) {
    throw new TeamManifestInvalidError('unlisted-member', `the server lists ${unlisted.length} member(s) the signed list does not`, { seq: chain.seq, unlisted });
  }
  for (const epoch of answer.epochs) {
    const signed = chain.epochs.find((entry) => entry.epoch === epoch.epoch);
    if (!signed || (await publicKeyHashOfSpki(epoch.public_key_spki).catch(() => '')) !== signed.keyHash) {
      throw new TeamManifestInvalidError('epoch-key', `the server's public key of epoch ${epoch.epoch} is not the signed one`, { seq: chain.seq });
    }
  }

  const epochKeys = new Map<number, CryptoKey>();
  for (const { epoch, envelope } of answer.my_envelopes) {
    const signed = chain.epochs.find((entry) => entry.epoch === epoch);
    if (!signed || epochKeys.has(epoch)) throw new CryptoError('INTEGRITY', `folder key envelope refused: epoch ${epoch} is not in the signed list, or sent twice`);
    epochKeys.set(epoch, await openEnvelope(envelope, account.decryptKey, { folderId, epoch, memberKeyHash: account.keyHash, epochKeyHash: signed.keyHash }));
  }

  const ring: FolderKeyRing = { chain, epochKeys, memberKeys };
  const team: VerifiedTeam = {
    folderId,
    seq: chain.seq,
    firstHash: chain.firstHash,
    headHash: chain.headHash,
    members: chain.members,
    epochs: chain.epochs,
    currentEpoch: chain.currentEpoch,
    unlisted: [],
    heldEpochs: [...epochKeys.keys()].sort((a, b) => a - b),
  };
  return { team, folderKeysId: keys.addFolder(ring) };
}

/** A file key sealed to one of the folder's epochs, as a file key of this worker. */
export async function unwrapFolderFileKey(keys: KeyStore, folderKeysId: string, epoch: number, encryptedKey: string): Promise<string> {
  const epochKey = keys.folder(folderKeysId).epochKeys.get(epoch);
  if (!epochKey) throw new CryptoError('WRONG_KEY', `this account holds no key of epoch ${epoch} of this folder`);
  return keys.add('file', await unwrapFileKey(encryptedKey, epochKey));
}

/** A checked member to list: role, key hash and the SPKI things are sealed to. */
interface NewMember {
  readonly entry: ManifestMember;
  readonly publicKeySpki: string;
}

async function newMember(input: MemberInput, roles: readonly TeamRole[]): Promise<NewMember> {
  if (!roles.includes(input.role)) throw notAllowed(`${input.username} cannot be given the role ${input.role}`);
  await importPublicKeySpki(input.publicKeySpki);
  return {
    entry: { user_id: input.userId, username: input.username, role: input.role, key: await publicKeyHashOfSpki(input.publicKeySpki) },
    publicKeySpki: input.publicKeySpki,
  };
}

/** The signed bytes of a version built here, checked by the same parser every reader uses. */
async function signVersion(manifest: TeamManifest, signingKey: CryptoKey): Promise<{ manifest: string; signature: string }> {
  const bytes = encodeManifest(manifest);
  parseManifest(bytes, manifest.seq);
  return { manifest: encodeBase64(bytes), signature: await signManifest(bytes, signingKey) };
}

export async function shareFolder(keys: KeyStore, privateKeyId: string, input: ShareFolderInput): Promise<ShareTeamRequest> {
  const account = keys.account(privateKeyId);
  const owner = await newMember(input.owner, ['owner']);
  if (owner.entry.key !== account.keyHash) throw notAllowed("the owner's public key is not this account's key");
  const members = [owner, ...(await Promise.all(input.members.map((member) => newMember(member, ['manager', 'reader']))))];
  const epoch = await generateEpochKeyPair();
  const now = new Date().toISOString();
  const signed = await signVersion(
    {
      format: 'sealdrop-folder-manifest',
      version: 1,
      folder_id: input.folderId,
      seq: 1,
      prev: null,
      signer: { user_id: owner.entry.user_id, key: account.keyHash },
      created_at: now,
      members: members.map((member) => member.entry),
      epochs: [{ epoch: 1, key: epoch.keyHash, created_at: now }],
      current_epoch: 1,
    },
    account.signingKey,
  );
  const envelopes: EnvelopeBody[] = [];
  for (const member of members) {
    envelopes.push({ user_id: member.entry.user_id, epoch: 1, envelope: await sealEnvelope(epoch.privateKey, { folderId: input.folderId, epoch: 1, memberPublicKeySpki: member.publicKeySpki }) });
  }
  // Files already in the folder were sealed to the owner's account key: their keys (not their content) are sealed again to epoch 1.
  const epochPublicKey = await importPublicKeySpki(epoch.publicKeySpki);
  const rekeyed: { file_id: number; encrypted_key: string }[] = [];
  for (const file of input.files) {
    rekeyed.push({ file_id: file.file_id, encrypted_key: await wrapFileKey(await unwrapFileKey(file.encrypted_key, account.decryptKey), epochPublicKey) });
  }
  return { ...signed, epoch: { epoch: 1, public_key_spki: epoch.publicKeySpki }, envelopes, rekeyed_files: rekeyed };
}

export async function changeTeam(keys: KeyStore, privateKeyId: string, folderKeysId: string, team: VerifiedTeam, change: TeamChange): Promise<ChangeTeamRequest> {
  const account = keys.account(privateKeyId);
  const ring = keys.folder(folderKeysId);
  const { chain } = ring;
  if (team.headHash !== chain.headHash || team.folderId !== chain.folderId) throw notAllowed('the team view is not the one these folder keys were opened with');
  const signer = chain.members.find((member) => member.keyHash === account.keyHash);
  if (!signer || (signer.role !== 'owner' && signer.role !== 'manager')) throw notAllowed('only the owner or a manager signs a new version');
  const remove = change.remove ?? [];
  const setRole = change.setRole ?? [];
  const add = change.add ?? [];
  if (remove.length + setRole.length + add.length === 0) throw notAllowed('nothing to change');

  let members: ManifestMember[] = chain.head.members.map((member) => ({ ...member }));
  const listed = (userId: number) => members.find((member) => member.user_id === userId);
  for (const userId of remove) {
    const member = listed(userId);
    if (!member) throw notAllowed(`user ${userId} is not a member`);
    if (member.role === 'owner') throw notAllowed('the owner cannot be removed');
    members = members.filter((entry) => entry.user_id !== userId);
  }
  for (const { userId, role } of setRole) {
    const member = listed(userId);
    if (!member) throw notAllowed(`user ${userId} is not a member`);
    if (member.role === 'owner' || (role !== 'manager' && role !== 'reader')) throw notAllowed("the owner's role stays, and others are manager or reader");
    members = members.map((entry) => (entry.user_id === userId ? { ...entry, role } : entry));
  }
  const added = await Promise.all(add.map((member) => newMember(member, ['manager', 'reader'])));
  for (const member of added) {
    if (listed(member.entry.user_id)) throw notAllowed(`${member.entry.username} is already a member`);
    if (members.some((entry) => entry.key === member.entry.key)) throw notAllowed(`${member.entry.username}'s key is already listed`);
    members.push(member.entry);
  }

  const publicKeys = new Map(ring.memberKeys);
  for (const member of added) publicKeys.set(member.entry.user_id, member.publicKeySpki);
  const now = new Date().toISOString();
  const epochs: ManifestEpoch[] = [...chain.head.epochs];
  const folderId = chain.folderId;
  const envelopes: EnvelopeBody[] = [];
  const seal = async (epochKey: CryptoKey, epoch: number, userId: number, spki: string) => {
    envelopes.push({ user_id: userId, epoch, envelope: await sealEnvelope(epochKey, { folderId, epoch, memberPublicKeySpki: spki }) });
  };

  // Anyone the new version drops keeps the old epochs' keys: a removal starts a new epoch, for the remaining members only.
  let newEpoch: ChangeTeamRequest['new_epoch'];
  if (remove.length > 0) {
    const withoutKey = members.filter((member) => !publicKeys.has(member.user_id));
    if (withoutKey.length > 0) {
      throw new TeamManifestInvalidError('member-key', "the server's public key of a remaining member is not the one the signed list names", {
        seq: chain.seq,
        unlisted: withoutKey.map((member) => ({ userId: member.user_id, username: member.username })),
      });
    }
    const pair = await generateEpochKeyPair();
    const epoch = epochs.length + 1;
    epochs.push({ epoch, key: pair.keyHash, created_at: now });
    newEpoch = { epoch, public_key_spki: pair.publicKeySpki };
    for (const member of members) await seal(pair.privateKey, epoch, member.user_id, publicKeys.get(member.user_id)!);
  }
  // A new member reads the folder's whole history: every earlier epoch, sealed to them.
  for (const member of added) {
    for (const { epoch } of chain.head.epochs) {
      const epochKey = ring.epochKeys.get(epoch);
      if (!epochKey) throw new CryptoError('WRONG_KEY', `this account holds no key of epoch ${epoch}, which a new member must receive`);
      await seal(epochKey, epoch, member.entry.user_id, member.publicKeySpki);
    }
  }

  const signed = await signVersion(
    {
      format: 'sealdrop-folder-manifest',
      version: 1,
      folder_id: folderId,
      seq: chain.seq + 1,
      prev: chain.headHash,
      signer: { user_id: signer.userId, key: account.keyHash },
      created_at: now,
      members,
      epochs,
      current_epoch: epochs.length,
    },
    account.signingKey,
  );
  return { expected_seq: chain.seq, ...signed, ...(newEpoch ? { new_epoch: newEpoch } : {}), envelopes };
}
