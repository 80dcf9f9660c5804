// The server's checks of a team folder write (docs/team-folders.md, "API"): the manifest parses,
// names this folder, follows the stored version, is signed by an owner or manager of the version
// before (by the account that sends it) with a valid signature; each new member's key hash is
// their account's public key now and the account is active; and every envelope the rules ask for
// is there, and nothing else. These are a cheap early refusal: the defence against a server that
// lies is each member's browser checking the whole chain (server/crypto/team-manifest.ts, rules).
import { createPublicKey } from 'node:crypto';
import type { ChangeTeamRequest, ShareTeamRequest } from '../../contract/team-folders.ts';
import { OfflineCryptoError, strictBase64 } from '../crypto/errors.ts';
import {
  checkFirstVersion,
  checkNextVersion,
  isEnvelopeShape,
  keyHash,
  parseManifest,
  sha256Hex,
  TeamManifestError,
  verifyManifestSignature,
  type ManifestMember,
  type TeamManifest,
} from '../crypto/team-manifest.ts';
import type { NewEnvelope, NewMember } from '../db/repositories/team-folders.ts';
import { TeamChangedError, TeamManifestInvalidError } from './team-errors.ts';

/** What the server knows of an account named in a manifest. */
export interface MemberAccount {
  id: number;
  username: string;
  publicKeySpki: string | null;
  active: boolean;
}

/** The signed-in account that sends the write. */
export interface TeamWriter {
  id: number;
  publicKeySpki: string | null;
}

/** A checked write: what the repository stores. */
export interface CheckedVersion {
  manifest: TeamManifest;
  hash: string;
  members: NewMember[];
  envelopes: NewEnvelope[];
}

type ParsedShare = Omit<ShareTeamRequest, 'epoch'> & { epoch: { epoch: number; public_key_spki: string } };

/** Parses the manifest text, turning every refusal of the parser into TEAM_MANIFEST_INVALID. */
function readManifest(text: string): { manifest: TeamManifest; bytes: Buffer } {
  try {
    const bytes = strictBase64(text, 'manifest');
    return { manifest: parseManifest(bytes), bytes };
  } catch (error) {
    if (error instanceof TeamManifestError || error instanceof OfflineCryptoError) throw new TeamManifestInvalidError(error.message);
    throw error;
  }
}

function asInvalid(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof TeamManifestError) throw new TeamManifestInvalidError(error.message);
    throw error;
  }
}

/** The signer is the writer, with the account key it has now, and the signature verifies with it. */
function checkSigner(manifest: TeamManifest, bytes: Buffer, signature: string, writer: TeamWriter): void {
  if (manifest.signer.user_id !== writer.id) throw new TeamManifestInvalidError('it must be signed by the account that sends it');
  if (writer.publicKeySpki === null || keyHash(writer.publicKeySpki) !== manifest.signer.key) {
    throw new TeamManifestInvalidError("the signer's key is not this account's public key");
  }
  if (!verifyManifestSignature(writer.publicKeySpki, bytes, signature)) throw new TeamManifestInvalidError('the signature does not verify');
}

/** An epoch's public key: an RSA key of at least 2048 bits whose SPKI hashes to the listed key. */
function checkEpochKey(publicKeySpki: string, listedKey: string): void {
  let valid = false;
  try {
    const key = createPublicKey({ key: strictBase64(publicKeySpki, 'epoch public key'), format: 'der', type: 'spki' });
    valid = key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
  } catch {
    valid = false;
  }
  if (!valid) throw new TeamManifestInvalidError('the epoch public key is not an RSA key of 2048 bits or more');
  if (keyHash(publicKeySpki) !== listedKey) throw new TeamManifestInvalidError("the epoch public key does not hash to the manifest's epoch key");
}

/** A member new to the list (or listed with another key): an active account whose public key now hashes to the listed key. */
function checkNewMember(member: ManifestMember, accounts: ReadonlyMap<number, MemberAccount>): void {
  const account = accounts.get(member.user_id);
  if (!account) throw new TeamManifestInvalidError(`member ${member.user_id} is not an account`);
  if (!account.active) throw new TeamManifestInvalidError(`member ${member.username} is a disabled account`);
  if (account.username !== member.username) throw new TeamManifestInvalidError(`member ${member.user_id} is not named ${member.username}`);
  if (account.publicKeySpki === null || keyHash(account.publicKeySpki) !== member.key) {
    throw new TeamManifestInvalidError(`the key of member ${member.username} is not their account's public key`);
  }
}

/** Exactly the envelopes `required` names (member, epoch), each of the shape of version 1. */
function checkEnvelopes(sent: ChangeTeamRequest['envelopes'], required: ReadonlyArray<{ userId: number; epoch: number }>): NewEnvelope[] {
  const key = (userId: number, epoch: number) => `${userId}:${epoch}`;
  const wanted = new Set(required.map((item) => key(item.userId, item.epoch)));
  const seen = new Set<string>();
  for (const envelope of sent) {
    const name = key(envelope.user_id, envelope.epoch);
    if (!wanted.has(name)) throw new TeamManifestInvalidError(`an envelope for member ${envelope.user_id}, epoch ${envelope.epoch} is not asked for`);
    if (seen.has(name)) throw new TeamManifestInvalidError(`the envelope for member ${envelope.user_id}, epoch ${envelope.epoch} is sent twice`);
    if (!isEnvelopeShape(envelope.envelope)) throw new TeamManifestInvalidError(`the envelope for member ${envelope.user_id}, epoch ${envelope.epoch} is not an envelope of version 1`);
    seen.add(name);
  }
  const missing = required.find((item) => !seen.has(key(item.userId, item.epoch)));
  if (missing) throw new TeamManifestInvalidError(`the envelope for member ${missing.userId}, epoch ${missing.epoch} is missing`);
  return sent.map((envelope) => ({ userId: envelope.user_id, epoch: envelope.epoch, envelope: envelope.envelope }));
}

const memberRows = (manifest: TeamManifest): NewMember[] => manifest.members.map((member) => ({ userId: member.user_id, role: member.role }));

/** POST /folders/{id}/team: version 1 by the folder's owner, epoch 1, an envelope for every member. */
export function checkShare(input: { folderId: number; ownerId: number; writer: TeamWriter; body: ParsedShare; accounts: ReadonlyMap<number, MemberAccount> }): CheckedVersion {
  const { manifest, bytes } = readManifest(input.body.manifest);
  if (manifest.folder_id !== input.folderId) throw new TeamManifestInvalidError('it names another folder');
  asInvalid(() => checkFirstVersion(manifest));
  if (manifest.signer.user_id !== input.ownerId) throw new TeamManifestInvalidError("only the folder's owner shares it");
  checkSigner(manifest, bytes, input.body.signature, input.writer);
  const owner = manifest.members.find((member) => member.role === 'owner');
  if (owner?.user_id !== input.ownerId) throw new TeamManifestInvalidError("the folder's owner must be its owner in the list");
  if (manifest.epochs.length !== 1) throw new TeamManifestInvalidError('a shared folder starts with epoch 1 only');
  checkEpochKey(input.body.epoch.public_key_spki, manifest.epochs[0]!.key);
  for (const member of manifest.members) checkNewMember(member, input.accounts);
  const envelopes = checkEnvelopes(input.body.envelopes, manifest.members.map((member) => ({ userId: member.user_id, epoch: 1 })));
  return { manifest, hash: sha256Hex(bytes), members: memberRows(manifest), envelopes };
}

/** POST /folders/{id}/team/versions: the version after the stored head. */
export function checkChange(input: {
  folderId: number;
  head: { seq: number; hash: string; manifest: string };
  writer: TeamWriter;
  body: ChangeTeamRequest;
  accounts: ReadonlyMap<number, MemberAccount>;
}): CheckedVersion & { newEpoch: { epoch: number; publicKeySpki: string } | undefined } {
  if (input.body.expected_seq !== input.head.seq) throw new TeamChangedError();
  const previous = parseManifest(strictBase64(input.head.manifest, 'stored manifest'));
  const { manifest, bytes } = readManifest(input.body.manifest);
  if (manifest.folder_id !== input.folderId) throw new TeamManifestInvalidError('it names another folder');
  asInvalid(() => checkNextVersion(previous, input.head.hash, manifest));
  checkSigner(manifest, bytes, input.body.signature, input.writer);

  const grown = manifest.epochs.length - previous.epochs.length;
  const newEpoch = input.body.new_epoch;
  if (grown === 0 && newEpoch !== undefined) throw new TeamManifestInvalidError('a new epoch is sent but the manifest lists none');
  if (grown === 1 && newEpoch === undefined) throw new TeamManifestInvalidError("the manifest lists a new epoch but its public key is not sent");
  if (grown > 1) throw new TeamManifestInvalidError('one change adds at most one epoch');
  const added = grown === 1 ? manifest.epochs[manifest.epochs.length - 1]! : undefined;
  if (added && newEpoch) {
    if (newEpoch.epoch !== added.epoch) throw new TeamManifestInvalidError('the new epoch is not the one the manifest adds');
    checkEpochKey(newEpoch.public_key_spki, added.key);
  }

  const stays = new Set(manifest.members.map((member) => member.user_id));
  const removed = previous.members.filter((member) => !stays.has(member.user_id));
  if (removed.length > 0 && !added) throw new TeamManifestInvalidError('removing a member starts a new epoch');

  const joined = manifest.members.filter((member) => {
    const before = previous.members.find((old) => old.user_id === member.user_id);
    return !before || before.key !== member.key;
  });
  for (const member of joined) checkNewMember(member, input.accounts);

  const required: Array<{ userId: number; epoch: number }> = [];
  if (added) for (const member of manifest.members) required.push({ userId: member.user_id, epoch: added.epoch });
  for (const member of joined) {
    for (const epoch of manifest.epochs) if (epoch !== added) required.push({ userId: member.user_id, epoch: epoch.epoch });
  }
  const envelopes = checkEnvelopes(input.body.envelopes, required);
  return {
    manifest,
    hash: sha256Hex(bytes),
    members: memberRows(manifest),
    envelopes,
    newEpoch: newEpoch && { epoch: newEpoch.epoch, publicKeySpki: newEpoch.public_key_spki },
  };
}

/** The ids of members a write names that are new to the list (those whose accounts the checks read). */
export function namedMemberIds(manifestText: string): number[] {
  try {
    const manifest = parseManifest(strictBase64(manifestText, 'manifest'));
    return manifest.members.map((member) => member.user_id);
  } catch {
    return [];
  }
}
