/**
 * Manifest v1 (docs/team-folders.md, "Manifest (version 1)"): the signed member list of a team
 * folder, one version per change. A version is the exact UTF-8 bytes of a JSON object in a fixed
 * key order; those bytes are what is signed and hashed, so they are kept as received and parsed
 * strictly: bytes that are not the canonical encoding of what they parse to (another key order,
 * white space, a duplicate key, `1.0` for `1`) are refused, and two implementations can never read
 * one version two ways.
 *
 * Signature: RSA-PSS (SHA-256, salt 32) over UTF-8("sealdrop folder manifest v1") || 0x00 || bytes,
 * with the signer's account key imported for RSA-PSS (team-keys.ts).
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { concatBytes, toHex, utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { TeamManifestInvalidError } from './team-errors.ts';
import { isKeyHash } from './team-keys.ts';

export const TEAM_MANIFEST_FORMAT = 'sealdrop-folder-manifest';
export const TEAM_MANIFEST_VERSION = 1;
export const TEAM_MANIFEST_SIGNATURE_PREFIX = 'sealdrop folder manifest v1';
export const TEAM_MANIFEST_SALT_LENGTH = 32;
export const TEAM_ROLES = ['owner', 'manager', 'reader'] as const;
export type TeamMemberRole = (typeof TEAM_ROLES)[number];

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MAX_USERNAME_LENGTH = 256;

export interface ManifestMember {
  readonly user_id: number;
  readonly username: string;
  readonly role: TeamMemberRole;
  /** Key hash of the member's account public key. */
  readonly key: string;
}

export interface ManifestEpoch {
  readonly epoch: number;
  /** Key hash of the epoch's public key. */
  readonly key: string;
  readonly created_at: string;
}

export interface TeamManifest {
  readonly format: typeof TEAM_MANIFEST_FORMAT;
  readonly version: typeof TEAM_MANIFEST_VERSION;
  readonly folder_id: number;
  readonly seq: number;
  /** Hex SHA-256 of version seq-1's bytes; null for version 1. */
  readonly prev: string | null;
  readonly signer: { readonly user_id: number; readonly key: string };
  readonly created_at: string;
  readonly members: readonly ManifestMember[];
  readonly epochs: readonly ManifestEpoch[];
  readonly current_epoch: number;
}

/** The exact bytes of a manifest: keys written in the documented order, no white space. */
export function encodeManifest(manifest: TeamManifest): Uint8Array<ArrayBuffer> {
  const ordered = {
    format: manifest.format,
    version: manifest.version,
    folder_id: manifest.folder_id,
    seq: manifest.seq,
    prev: manifest.prev,
    signer: { user_id: manifest.signer.user_id, key: manifest.signer.key },
    created_at: manifest.created_at,
    members: manifest.members.map((m) => ({ user_id: m.user_id, username: m.username, role: m.role, key: m.key })),
    epochs: manifest.epochs.map((e) => ({ epoch: e.epoch, key: e.key, created_at: e.created_at })),
    current_epoch: manifest.current_epoch,
  };
  return utf8(JSON.stringify(ordered));
}

/** Hex SHA-256 of a version's bytes: what the next version's `prev` names. */
export async function manifestHash(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

function signedBytes(manifestBytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes([utf8(TEAM_MANIFEST_SIGNATURE_PREFIX), Uint8Array.of(0), manifestBytes]);
}

/** base64 of the RSA-PSS signature over a version's bytes, with the account key's RSA-PSS import. */
export async function signManifest(manifestBytes: Uint8Array, signingKey: CryptoKey): Promise<string> {
  const signature = await crypto.subtle.sign({ name: 'RSA-PSS', saltLength: TEAM_MANIFEST_SALT_LENGTH }, signingKey, signedBytes(manifestBytes));
  return encodeBase64(new Uint8Array(signature));
}

/** Whether `signature` (base64) is a valid signature of these bytes by `verifyingKey` (RSA-PSS import). */
export async function verifyManifestSignature(manifestBytes: Uint8Array, signature: string, verifyingKey: CryptoKey): Promise<boolean> {
  let signatureBytes: Uint8Array<ArrayBuffer>;
  try {
    signatureBytes = decodeBase64(signature, 'manifest signature');
  } catch {
    return false;
  }
  return crypto.subtle.verify({ name: 'RSA-PSS', saltLength: TEAM_MANIFEST_SALT_LENGTH }, verifyingKey, signatureBytes, signedBytes(manifestBytes));
}

type Json = Record<string, unknown>;

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

function isMember(value: unknown): value is ManifestMember {
  return (
    isObject(value) &&
    isPositiveInteger(value.user_id) &&
    typeof value.username === 'string' &&
    value.username.length >= 1 &&
    value.username.length <= MAX_USERNAME_LENGTH &&
    (TEAM_ROLES as readonly unknown[]).includes(value.role) &&
    isKeyHash(value.key)
  );
}

function isEpoch(value: unknown): value is ManifestEpoch {
  return isObject(value) && isPositiveInteger(value.epoch) && isKeyHash(value.key) && isInstant(value.created_at);
}

/** The shape problems of a parsed value, or null when it is a well-formed manifest v1. */
function shapeProblem(value: unknown): string | null {
  if (!isObject(value)) return 'not a JSON object';
  if (value.format !== TEAM_MANIFEST_FORMAT) return 'not a folder manifest';
  if (value.version !== TEAM_MANIFEST_VERSION) return `unknown manifest version ${String(value.version)}`;
  if (!isPositiveInteger(value.folder_id) || !isPositiveInteger(value.seq)) return 'folder_id and seq must be positive integers';
  if (value.prev !== null && !isKeyHash(value.prev)) return 'prev must be null or a hex SHA-256';
  if (!isObject(value.signer) || !isPositiveInteger(value.signer.user_id) || !isKeyHash(value.signer.key)) return 'signer is malformed';
  if (!isInstant(value.created_at)) return 'created_at is not an ISO 8601 UTC instant';
  if (!Array.isArray(value.members) || value.members.length === 0 || !value.members.every(isMember)) return 'members are malformed';
  const members = value.members as ManifestMember[];
  if (new Set(members.map((m) => m.user_id)).size !== members.length) return 'a member is listed twice';
  if (new Set(members.map((m) => m.key)).size !== members.length) return 'two members share one key';
  if (members.filter((m) => m.role === 'owner').length !== 1) return 'a folder has exactly one owner';
  if (!Array.isArray(value.epochs) || value.epochs.length === 0 || !value.epochs.every(isEpoch)) return 'epochs are malformed';
  if (!isPositiveInteger(value.current_epoch)) return 'current_epoch must be a positive integer';
  return null;
}

/**
 * Parses a version's bytes strictly (see the header); anything else is TeamManifestInvalidError
 * 'malformed'. `seq` names the position in the chain for the error.
 */
export function parseManifest(bytes: Uint8Array, seq: number | null = null): TeamManifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new TeamManifestInvalidError('malformed', 'manifest is not UTF-8 JSON', { seq, cause: error });
  }
  const problem = shapeProblem(value);
  if (problem) throw new TeamManifestInvalidError('malformed', `manifest refused: ${problem}`, { seq });
  const manifest = value as TeamManifest;
  const canonical = encodeManifest(manifest);
  if (canonical.length !== bytes.length || canonical.some((byte, i) => byte !== bytes[i])) {
    throw new TeamManifestInvalidError('malformed', 'manifest bytes are not in the canonical form', { seq });
  }
  return manifest;
}

/** base64 of a version as the API carries it, to its bytes (MALFORMED as TeamManifestInvalidError). */
export function decodeManifestText(text: string, seq: number | null = null): Uint8Array<ArrayBuffer> {
  try {
    return decodeBase64(text, 'manifest');
  } catch (error) {
    if (error instanceof CryptoError) throw new TeamManifestInvalidError('malformed', 'manifest is not base64', { seq, cause: error });
    throw error;
  }
}
