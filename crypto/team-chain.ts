/**
 * The check a member's browser makes of a team folder's whole chain of manifest versions before it
 * believes anything about the folder's members or keys (docs/team-folders.md, the six rules). The
 * server's word counts for nothing here: every version is parsed from its own bytes, linked by
 * hash to the one before, and signed by someone the version before allows to sign. A refusal is
 * TeamManifestInvalidError with the rule it broke as `reason`.
 */
import type { TeamManifestInvalidReason } from './team-errors.ts';
import { TeamManifestInvalidError } from './team-errors.ts';
import { importVerifyingKey, publicKeyHashOfSpki } from './team-keys.ts';
import {
  decodeManifestText,
  manifestHash,
  parseManifest,
  verifyManifestSignature,
  type ManifestEpoch,
  type TeamManifest,
  type TeamMemberRole,
} from './team-manifest.ts';

/** One stored version as GET /folders/{id}/team carries it (camelCase here). */
export interface SignedManifestVersion {
  /** base64 of the version's exact bytes. */
  readonly manifest: string;
  /** base64 RSA-PSS signature. */
  readonly signature: string;
  /** base64 SPKI the server says signed it; believed only if it hashes to the version's signer key. */
  readonly signerPublicKeySpki: string;
}

/**
 * What this browser saw of the folder's chain before (remembered per account and folder by the
 * page). `headHash`, the hash of version `seq` as seen, is optional but worth keeping: with it, a
 * chain that keeps version 1 and grows past `seq` along another branch (versions signed by someone
 * who was a manager before being removed, say) is a fork too, not only a different version 1.
 */
export type SeenChain = { readonly firstHash: string; readonly seq: number; readonly headHash?: string | undefined } | null;

export interface VerifiedMember {
  readonly userId: number;
  readonly username: string;
  readonly role: TeamMemberRole;
  readonly keyHash: string;
}

export interface VerifiedEpoch {
  readonly epoch: number;
  readonly keyHash: string;
  readonly createdAt: string;
}

export interface VerifiedTeamChain {
  readonly folderId: number;
  readonly seq: number;
  /** Hex SHA-256 of version 1's bytes: the folder's chain identity, remembered by the page. */
  readonly firstHash: string;
  /** Hex SHA-256 of the newest version's bytes: the next version's `prev`. */
  readonly headHash: string;
  readonly members: readonly VerifiedMember[];
  readonly epochs: readonly VerifiedEpoch[];
  readonly currentEpoch: number;
  /** The newest version as parsed (the base of the next change). */
  readonly head: TeamManifest;
  /** The viewer's own entry in the newest version. */
  readonly viewer: VerifiedMember;
}

function refuse(reason: TeamManifestInvalidReason, message: string, seq: number | null): never {
  throw new TeamManifestInvalidError(reason, message, { seq });
}

function sameEpoch(a: ManifestEpoch, b: ManifestEpoch): boolean {
  return a.epoch === b.epoch && a.key === b.key && a.created_at === b.created_at;
}

/** Rule 4 within one version: epochs numbered 1, 2, … in order, and current_epoch the largest. */
function checkEpochsOf(manifest: TeamManifest, seq: number): void {
  manifest.epochs.forEach((entry, index) => {
    if (entry.epoch !== index + 1) refuse('epochs', `version ${seq}: epochs must be numbered 1, 2, … in order`, seq);
  });
  if (manifest.current_epoch !== manifest.epochs.length) refuse('epochs', `version ${seq}: current_epoch is not its largest epoch`, seq);
}

/** Rules 2 and 4 between a version and the one before it. */
function checkLink(before: TeamManifest, beforeHash: string, next: TeamManifest, seq: number): void {
  if (next.folder_id !== before.folder_id) refuse('folder', `version ${seq} names another folder`, seq);
  if (next.prev !== beforeHash) refuse('chain', `version ${seq} does not follow version ${seq - 1}`, seq);
  const signer = before.members.find((m) => m.user_id === next.signer.user_id);
  if (!signer || (signer.role !== 'owner' && signer.role !== 'manager') || signer.key !== next.signer.key) {
    refuse('signer-role', `version ${seq} is not signed by an owner or manager of version ${seq - 1}`, seq);
  }
  const owner = (m: TeamManifest) => m.members.find((member) => member.role === 'owner')!;
  if (owner(next).user_id !== owner(before).user_id || owner(next).key !== owner(before).key) refuse('chain', `version ${seq} changes the folder's owner`, seq);
  if (next.epochs.length < before.epochs.length || before.epochs.some((entry, i) => !sameEpoch(entry, next.epochs[i]!))) {
    refuse('epochs', `version ${seq} removes or changes an earlier epoch`, seq);
  }
  // Offboarding: whoever leaves keeps the old epochs' keys, so the version that drops them must start a new epoch.
  const left = before.members.some((m) => !next.members.some((n) => n.user_id === m.user_id && n.key === m.key));
  if (left && next.epochs.length === before.epochs.length) refuse('epochs', `version ${seq} removes a member without a new epoch`, seq);
}

/**
 * Verifies versions 1..n of `folderId` for the viewer whose account key hash is `viewerKeyHash`,
 * against what this browser saw before (`seen`). Returns the newest version's members and epochs.
 */
export async function verifyTeamChain(input: {
  readonly folderId: number;
  readonly versions: readonly SignedManifestVersion[];
  readonly viewerKeyHash: string;
  readonly seen: SeenChain;
}): Promise<VerifiedTeamChain> {
  const { folderId, versions, seen } = input;
  if (seen && versions.length < seen.seq) refuse('rollback', `the server sent ${versions.length} versions; this browser saw ${seen.seq}`, null);
  if (versions.length === 0) refuse('malformed', 'the folder has no signed member list', null);
  let before: TeamManifest | undefined;
  let beforeHash = '';
  let firstHash = '';
  let hashAtSeen: string | undefined;
  for (const [index, version] of versions.entries()) {
    const seq = index + 1;
    const bytes = decodeManifestText(version.manifest, seq);
    const manifest = parseManifest(bytes, seq);
    if (manifest.folder_id !== folderId) refuse('folder', `version ${seq} names folder ${manifest.folder_id}, not ${folderId}`, seq);
    if (manifest.seq !== seq) refuse('chain', `version ${seq} says it is version ${manifest.seq}`, seq);
    if (!before) {
      if (manifest.prev !== null) refuse('chain', 'version 1 must not follow another version', seq);
      const self = manifest.members.find((m) => m.user_id === manifest.signer.user_id);
      if (!self || self.role !== 'owner' || self.key !== manifest.signer.key) refuse('signer-role', 'version 1 is not signed by its owner', seq);
    } else {
      checkLink(before, beforeHash, manifest, seq);
    }
    checkEpochsOf(manifest, seq);
    let signatureValid = false;
    try {
      if ((await publicKeyHashOfSpki(version.signerPublicKeySpki)) === manifest.signer.key) {
        signatureValid = await verifyManifestSignature(bytes, version.signature, await importVerifyingKey(version.signerPublicKeySpki));
      }
    } catch {
      signatureValid = false;
    }
    if (!signatureValid) refuse('signature', `version ${seq}'s signature does not verify with its signer's key`, seq);
    beforeHash = await manifestHash(bytes);
    if (seq === 1) firstHash = beforeHash;
    if (seq === seen?.seq) hashAtSeen = beforeHash;
    before = manifest;
  }
  const head = before!;
  if (seen && seen.firstHash !== firstHash) refuse('fork', 'this chain does not start with the version 1 this browser saw', 1);
  if (seen?.headHash !== undefined && seen.headHash !== hashAtSeen) refuse('fork', `this chain's version ${seen.seq} is not the one this browser saw`, seen.seq);
  const members = head.members.map((m) => ({ userId: m.user_id, username: m.username, role: m.role, keyHash: m.key }));
  const viewer = members.find((m) => m.keyHash === input.viewerKeyHash);
  if (!viewer) refuse('not-member', 'your key is not a member of the newest version', head.seq);
  return {
    folderId,
    seq: head.seq,
    firstHash,
    headHash: beforeHash,
    members,
    epochs: head.epochs.map((e) => ({ epoch: e.epoch, keyHash: e.key, createdAt: e.created_at })),
    currentEpoch: head.current_epoch,
    head,
    viewer,
  };
}
