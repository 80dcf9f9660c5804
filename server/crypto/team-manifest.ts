/**
 * Team folder manifests and envelopes (docs/team-folders.md) with node:crypto, independent of
 * crypto/: parsing a manifest, its RSA-PSS signature, the acceptance rules of a chain, and opening
 * an envelope. The server uses the parts it can check (a cheap early refusal: the defence is each
 * member's browser), the command-line fetch checks the whole chain as a browser does, and tests
 * use it as the reference implementation.
 */
import { constants, createDecipheriv, createHash, createPrivateKey, createPublicKey, privateDecrypt, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { CodedError } from '../../contract/coded-error.ts';
import {
  MAX_TEAM_EPOCHS,
  MAX_TEAM_MEMBERS,
  TEAM_ENVELOPE_AAD_PREFIX,
  TEAM_ENVELOPE_VERSION,
  TEAM_MANIFEST_FORMAT,
  TEAM_MANIFEST_SIGNATURE_PREFIX,
  TEAM_MANIFEST_VERSION,
  TEAM_ROLES,
  type TeamRole,
} from '../../contract/team-folders.ts';
import { OfflineCryptoError, strictBase64 } from './errors.ts';

/** Why a manifest or chain is refused: the reason travels with TEAM_MANIFEST_INVALID. */
export type ManifestRefusal =
  | 'MALFORMED'
  | 'WRONG_FOLDER'
  | 'BROKEN_LINK'
  | 'SIGNER_NOT_ALLOWED'
  | 'BAD_SIGNATURE'
  | 'EPOCHS_CHANGED'
  | 'OWNER_CHANGED'
  | 'NOT_A_MEMBER'
  | 'CHAIN_FORKED';

export class TeamManifestError extends CodedError<'TEAM_MANIFEST_INVALID'> {
  constructor(
    readonly reason: ManifestRefusal,
    message: string,
  ) {
    super('TEAM_MANIFEST_INVALID', message);
  }
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const positive = z.number().int().positive().max(2_147_483_647);

const manifestSchema = z.strictObject({
  format: z.literal(TEAM_MANIFEST_FORMAT),
  version: z.literal(TEAM_MANIFEST_VERSION),
  folder_id: positive,
  seq: positive,
  prev: hex64.nullable(),
  signer: z.strictObject({ user_id: positive, key: hex64 }),
  created_at: z.string().max(64),
  members: z
    .array(z.strictObject({ user_id: positive, username: z.string().min(1).max(256), role: z.enum(TEAM_ROLES), key: hex64 }))
    .min(1)
    .max(MAX_TEAM_MEMBERS),
  epochs: z.array(z.strictObject({ epoch: positive, key: hex64, created_at: z.string().max(64) })).min(1).max(MAX_TEAM_EPOCHS),
  current_epoch: positive,
});

export type TeamManifest = z.infer<typeof manifestSchema>;
export type ManifestMember = TeamManifest['members'][number];

/** The manifest's bytes written in the key order of docs/team-folders.md (what a signing browser writes). */
export function manifestBytes(manifest: TeamManifest): Buffer {
  const ordered = {
    format: manifest.format,
    version: manifest.version,
    folder_id: manifest.folder_id,
    seq: manifest.seq,
    prev: manifest.prev,
    signer: { user_id: manifest.signer.user_id, key: manifest.signer.key },
    created_at: manifest.created_at,
    members: manifest.members.map((member) => ({ user_id: member.user_id, username: member.username, role: member.role, key: member.key })),
    epochs: manifest.epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.key, created_at: epoch.created_at })),
    current_epoch: manifest.current_epoch,
  };
  return Buffer.from(JSON.stringify(ordered), 'utf8');
}

/**
 * Parses manifest bytes. Only the one spelling docs/team-folders.md fixes is accepted (keys in
 * order, no spaces), so two parties never read one signed text two ways; members and epochs have
 * no repeats, epochs run 1..n in order, and current_epoch is the last one.
 */
export function parseManifest(bytes: Buffer): TeamManifest {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new TeamManifestError('MALFORMED', 'The manifest is not UTF-8 JSON');
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new TeamManifestError('MALFORMED', 'The manifest does not have the fields of version 1');
  const manifest = parsed.data;
  if (!manifestBytes(manifest).equals(bytes)) throw new TeamManifestError('MALFORMED', 'The manifest is not written in its one fixed form');
  if (new Set(manifest.members.map((member) => member.user_id)).size !== manifest.members.length) {
    throw new TeamManifestError('MALFORMED', 'The manifest lists a member twice');
  }
  if (manifest.epochs.some((epoch, index) => epoch.epoch !== index + 1)) throw new TeamManifestError('MALFORMED', 'The epochs do not run 1, 2, 3, ...');
  if (manifest.current_epoch !== manifest.epochs.length) throw new TeamManifestError('MALFORMED', 'current_epoch is not the last epoch');
  if (manifest.members.filter((member) => member.role === 'owner').length !== 1) throw new TeamManifestError('MALFORMED', 'The manifest must name exactly one owner');
  if (Number.isNaN(Date.parse(manifest.created_at))) throw new TeamManifestError('MALFORMED', 'created_at is not a date');
  return manifest;
}

/** Lower-case hex SHA-256 of a key's SPKI DER (base64): the `key` of members, signers and epochs. */
export function keyHash(spkiBase64: string): string {
  return createHash('sha256').update(strictBase64(spkiBase64, 'public key')).digest('hex');
}

/** Lower-case hex SHA-256 of bytes: a version's hash, the next version's `prev`. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What the signature covers: UTF-8(prefix) || 0x00 || manifest bytes. */
export function signedBytes(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(TEAM_MANIFEST_SIGNATURE_PREFIX, 'utf8'), Buffer.from([0]), bytes]);
}

/** Whether `signature` (base64) is the RSA-PSS (SHA-256, salt 32) signature of the manifest bytes by the SPKI's key. */
export function verifyManifestSignature(spkiBase64: string, bytes: Buffer, signatureBase64: string): boolean {
  let key: KeyObject;
  let signature: Buffer;
  try {
    key = createPublicKey({ key: strictBase64(spkiBase64, 'signer public key'), format: 'der', type: 'spki' });
    signature = strictBase64(signatureBase64, 'signature');
  } catch {
    return false;
  }
  if (key.asymmetricKeyType !== 'rsa') return false;
  return verify('sha256', signedBytes(bytes), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
}

/** The member of `manifest` with this user id. */
export function memberOf(manifest: TeamManifest, userId: number): ManifestMember | undefined {
  return manifest.members.find((member) => member.user_id === userId);
}

const MANAGING_ROLES: readonly TeamRole[] = ['owner', 'manager'];

/** Rule 1: a first version, signed by its own owner. */
export function checkFirstVersion(manifest: TeamManifest): void {
  if (manifest.seq !== 1 || manifest.prev !== null) throw new TeamManifestError('BROKEN_LINK', 'The first version must have seq 1 and no prev');
  const signer = memberOf(manifest, manifest.signer.user_id);
  if (!signer || signer.role !== 'owner' || signer.key !== manifest.signer.key) {
    throw new TeamManifestError('SIGNER_NOT_ALLOWED', 'The first version must be signed by its owner');
  }
}

/**
 * Rules 2 and 4 (and the owner staying the owner): `next` follows `previous`, whose bytes hash to
 * `previousHash`, and is signed by an owner or manager of `previous` with the key listed there.
 */
export function checkNextVersion(previous: TeamManifest, previousHash: string, next: TeamManifest): void {
  if (next.folder_id !== previous.folder_id) throw new TeamManifestError('WRONG_FOLDER', 'The version names another folder');
  if (next.seq !== previous.seq + 1 || next.prev !== previousHash) throw new TeamManifestError('BROKEN_LINK', 'The version does not follow the one before');
  const signer = memberOf(previous, next.signer.user_id);
  if (!signer || !MANAGING_ROLES.includes(signer.role) || signer.key !== next.signer.key) {
    throw new TeamManifestError('SIGNER_NOT_ALLOWED', 'The version is not signed by an owner or manager of the version before');
  }
  const grown =
    next.epochs.length >= previous.epochs.length &&
    previous.epochs.every((epoch, index) => {
      const same = next.epochs[index];
      return same !== undefined && same.epoch === epoch.epoch && same.key === epoch.key && same.created_at === epoch.created_at;
    });
  if (!grown) throw new TeamManifestError('EPOCHS_CHANGED', 'The epochs of the version before changed');
  const ownerBefore = previous.members.find((member) => member.role === 'owner');
  const ownerNow = next.members.find((member) => member.role === 'owner');
  if (!ownerBefore || !ownerNow || ownerBefore.user_id !== ownerNow.user_id || ownerBefore.key !== ownerNow.key) {
    throw new TeamManifestError('OWNER_CHANGED', 'The owner of the folder changed');
  }
}

/** One stored version as GET /folders/{id}/team answers it (all base64). */
export interface ChainEntry {
  manifest: string;
  signature: string;
  signer_public_key_spki: string;
}

/** What a viewer remembers of a chain it accepted before (rule 6). */
export interface SeenChain {
  firstHash: string;
  seq: number;
}

export interface VerifiedChain {
  head: TeamManifest;
  firstHash: string;
  headHash: string;
}

/**
 * Rules 1 to 6 over a whole chain, as a member's browser applies them: every version parsed,
 * linked, signed by an allowed signer whose SPKI hashes to the listed key, and the viewer a member
 * of the last version with its own key; not shorter than or forked from `seen`.
 */
export function verifyChain(folderId: number, entries: readonly ChainEntry[], viewer: { userId: number; keyHash: string }, seen: SeenChain | null = null): VerifiedChain {
  if (entries.length === 0) throw new TeamManifestError('MALFORMED', 'The folder has no signed member list');
  let previous: { manifest: TeamManifest; hash: string } | undefined;
  let firstHash = '';
  for (const entry of entries) {
    const bytes = strictManifestBytes(entry.manifest);
    const manifest = parseManifest(bytes);
    if (manifest.folder_id !== folderId) throw new TeamManifestError('WRONG_FOLDER', 'The version names another folder');
    if (previous) checkNextVersion(previous.manifest, previous.hash, manifest);
    else checkFirstVersion(manifest);
    if (keyHash(entry.signer_public_key_spki) !== manifest.signer.key) throw new TeamManifestError('BAD_SIGNATURE', "The signer's key does not hash to the listed key");
    if (!verifyManifestSignature(entry.signer_public_key_spki, bytes, entry.signature)) throw new TeamManifestError('BAD_SIGNATURE', 'A signature does not verify');
    const hash = sha256Hex(bytes);
    if (!previous) firstHash = hash;
    previous = { manifest, hash };
  }
  const head = previous!;
  const me = memberOf(head.manifest, viewer.userId);
  if (!me || me.key !== viewer.keyHash) throw new TeamManifestError('NOT_A_MEMBER', 'This account is not a member of the folder with its key');
  if (seen && (seen.firstHash !== firstHash || seen.seq > head.manifest.seq)) throw new TeamManifestError('CHAIN_FORKED', 'The member list is shorter than, or forks from, the one seen before');
  return { head: head.manifest, firstHash, headHash: head.hash };
}

function strictManifestBytes(text: string): Buffer {
  try {
    return strictBase64(text, 'manifest');
  } catch {
    throw new TeamManifestError('MALFORMED', 'The manifest is not base64');
  }
}

/** The envelope's additional data (docs/team-folders.md, "Envelope (version 1)"). */
export function envelopeAad(folderId: number, epoch: number, memberKeyHash: string): Buffer {
  return Buffer.from(`${TEAM_ENVELOPE_AAD_PREFIX}${folderId}:${epoch}:${memberKeyHash}`, 'utf8');
}

const RSA_2048_BYTES = 256;
const GCM_NONCE = 12;
const GCM_TAG = 16;

/** Whether an envelope has the shape of version 1 (the server can check no more than that). */
export function isEnvelopeShape(envelopeBase64: string): boolean {
  try {
    const bytes = strictBase64(envelopeBase64, 'envelope');
    return bytes[0] === TEAM_ENVELOPE_VERSION && bytes.length > 1 + RSA_2048_BYTES + GCM_NONCE + GCM_TAG;
  } catch {
    return false;
  }
}

/**
 * Opens an envelope with the member's account private key and checks that the public half of the
 * opened key hashes to `epochKeyHash` from the verified manifest (a key the server sealed to the
 * member itself is refused here). Any failure is INTEGRITY.
 */
export function openEnvelope(
  memberPrivateKey: KeyObject,
  input: { folderId: number; epoch: number; memberKeyHash: string; epochKeyHash: string; envelope: string },
): KeyObject {
  const integrity = () => new OfflineCryptoError('INTEGRITY', `The envelope of epoch ${input.epoch} does not open`);
  const bytes = strictBase64(input.envelope, 'envelope');
  if (bytes[0] !== TEAM_ENVELOPE_VERSION || bytes.length <= 1 + RSA_2048_BYTES + GCM_NONCE + GCM_TAG) throw integrity();
  const wrapped = bytes.subarray(1, 1 + RSA_2048_BYTES);
  const nonce = bytes.subarray(1 + RSA_2048_BYTES, 1 + RSA_2048_BYTES + GCM_NONCE);
  const sealed = bytes.subarray(1 + RSA_2048_BYTES + GCM_NONCE);
  let pkcs8: Buffer;
  try {
    const key = privateDecrypt({ key: memberPrivateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped);
    if (key.length !== 32) throw integrity();
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(envelopeAad(input.folderId, input.epoch, input.memberKeyHash));
    decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG));
    pkcs8 = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - GCM_TAG)), decipher.final()]);
  } catch {
    throw integrity();
  }
  let epochKey: KeyObject;
  try {
    epochKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  } catch {
    throw integrity();
  }
  const publicDer = createPublicKey(epochKey).export({ format: 'der', type: 'spki' });
  if (sha256Hex(publicDer) !== input.epochKeyHash) throw integrity();
  return epochKey;
}
