/**
 * The browser's refusal of a team folder's signed member list (docs/team-folders.md, "Manifest
 * (version 1)", the six rules). The code is the wire code the server uses for the same refusal;
 * `reason` says which rule failed, so the page can word its warning and tests can tell the rules
 * apart. Nothing here is matched by message text.
 */
export const TEAM_MANIFEST_INVALID = 'TEAM_MANIFEST_INVALID';

export const TEAM_MANIFEST_INVALID_REASONS = [
  /** A version is not the exact canonical bytes of a manifest v1, or a field has the wrong shape. */
  'malformed',
  /** A signature does not verify, or the signer's public key does not hash to the signer's `key`. */
  'signature',
  /** `seq` skips or repeats, `prev` is not the hash of the version before, or the owner (user or key) changed. */
  'chain',
  /** The chain names another folder than the one asked for. */
  'folder',
  /** Version 1 not signed by its owner, or a later version not signed by an owner or manager of the one before. */
  'signer-role',
  /** `epochs` shrank or changed, `current_epoch` is not its largest, or a member left without a new epoch. */
  'epochs',
  /** The viewer's own public key is not a member of the newest version. */
  'not-member',
  /** The chain is shorter than one this browser already saw. */
  'rollback',
  /** The chain's first version (or, when remembered, its version at the seen seq) differs from the one this browser saw. */
  'fork',
  /** The server lists members (or member keys) the newest version does not: nothing is sealed or signed for this folder. */
  'unlisted-member',
  /**
   * The server's public key for a listed member does not hash to the key the signed list names (a
   * substituted key, or a member who made a new key pair): nothing new is sealed to it; remove the
   * member and add them again with the key their fingerprint confirms.
   */
  'member-key',
  /** An epoch public key the server sent does not hash to the epoch's key in the signed list. */
  'epoch-key',
] as const;

export type TeamManifestInvalidReason = (typeof TEAM_MANIFEST_INVALID_REASONS)[number];

export interface UnlistedMember {
  readonly userId: number;
  readonly username: string;
}

export class TeamManifestInvalidError extends Error {
  override readonly name = 'TeamManifestInvalidError';
  readonly code = TEAM_MANIFEST_INVALID;
  readonly reason: TeamManifestInvalidReason;
  /** The version that was refused (null: the chain as a whole, e.g. a rollback). */
  readonly seq: number | null;
  /** With reason 'unlisted-member' or 'member-key': the members concerned, for the warning to name. */
  readonly unlisted: readonly UnlistedMember[];

  constructor(reason: TeamManifestInvalidReason, message: string, details: { seq?: number | null; unlisted?: readonly UnlistedMember[]; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.seq = details.seq ?? null;
    this.unlisted = details.unlisted ?? [];
  }
}

export function isTeamManifestInvalidReason(value: unknown): value is TeamManifestInvalidReason {
  return typeof value === 'string' && (TEAM_MANIFEST_INVALID_REASONS as readonly string[]).includes(value);
}

export function isTeamManifestInvalidError(value: unknown, reason?: TeamManifestInvalidReason): value is TeamManifestInvalidError {
  return value instanceof TeamManifestInvalidError && (reason === undefined || value.reason === reason);
}
