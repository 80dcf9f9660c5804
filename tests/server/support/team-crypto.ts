// What a member's browser makes for a team folder (docs/team-folders.md), written here with
// node:crypto on its own, without server/crypto/team-manifest.ts: manifests in their one spelling,
// RSA-PSS signatures with an account key, envelopes of epoch keys, and a model of one folder's team
// that builds share and change bodies (tests then tamper with them as an attacker would).
import { constants, createCipheriv, createHash, createPublicKey, generateKeyPairSync, publicEncrypt, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { ChangeTeamRequest, ShareTeamRequest } from '../../../contract/team-folders.ts';
import type { TestServer } from '../harness.ts';
import type { TestClient } from '../http-client.ts';

export interface RsaPair {
  publicKey: KeyObject;
  privateKey: KeyObject;
  /** base64 SPKI DER. */
  spki: string;
  /** hex SHA-256 of the SPKI DER. */
  hash: string;
}

export function rsaPair(): RsaPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 65537 });
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicKey, privateKey, spki: der.toString('base64'), hash: createHash('sha256').update(der).digest('hex') };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A signed-in account with a key pair stored on the server. */
export interface TeamAccount {
  id: number;
  username: string;
  password: string;
  client: TestClient;
  keys: RsaPair;
}

let accountCount = 0;

export async function teamAccount(server: TestServer, name: string, email: string | null = null): Promise<TeamAccount> {
  const username = `${name}${++accountCount}`;
  const password = 'correct horse battery';
  const user = await server.createUser(username, password, email);
  const keys = rsaPair();
  await server.app.repos.users.setPublicKey(user.id, keys.spki);
  const client = server.client();
  const login = await client.login(username, password);
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return { id: user.id, username, password, client, keys };
}

/** RSA-OAEP-SHA256 of `bytes` to a base64 SPKI (a file key sealed to a key). */
export function sealTo(spki: string, bytes: Buffer): string {
  const key = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes).toString('base64');
}

/** Envelope v1: 0x01 || RSA-OAEP(member, k) || n || AES-256-GCM(k, n, aad, PKCS8). */
export function sealEnvelope(member: { spki: string; hash: string }, folderId: number, epoch: number, epochKey: KeyObject): string {
  const k = randomBytes(32);
  const n = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k, n);
  cipher.setAAD(Buffer.from(`sealdrop folder key v1:${folderId}:${epoch}:${member.hash}`, 'utf8'));
  const pkcs8 = epochKey.export({ format: 'der', type: 'pkcs8' });
  const sealed = Buffer.concat([cipher.update(pkcs8), cipher.final(), cipher.getAuthTag()]);
  return Buffer.concat([Buffer.from([1]), Buffer.from(sealTo(member.spki, k), 'base64'), n, sealed]).toString('base64');
}

/** RSA-PSS (SHA-256, salt 32) over UTF-8(prefix) || 0x00 || bytes, base64. */
export function signManifest(privateKey: KeyObject, bytes: Buffer): string {
  const data = Buffer.concat([Buffer.from('sealdrop folder manifest v1', 'utf8'), Buffer.from([0]), bytes]);
  return sign('sha256', data, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64');
}

export type Role = 'owner' | 'manager' | 'reader';

export interface ManifestMemberInput {
  user_id: number;
  username: string;
  role: Role;
  key: string;
}

export interface ManifestInput {
  folderId: number;
  seq: number;
  prev: string | null;
  signer: { user_id: number; key: string };
  createdAt?: string;
  members: ManifestMemberInput[];
  epochs: Array<{ epoch: number; key: string; created_at: string }>;
}

/** The manifest's bytes in the key order of docs/team-folders.md. */
export function manifestBytes(input: ManifestInput): Buffer {
  return Buffer.from(
    JSON.stringify({
      format: 'sealdrop-folder-manifest',
      version: 1,
      folder_id: input.folderId,
      seq: input.seq,
      prev: input.prev,
      signer: { user_id: input.signer.user_id, key: input.signer.key },
      created_at: input.createdAt ?? new Date().toISOString(),
      members: input.members.map((member) => ({ user_id: member.user_id, username: member.username, role: member.role, key: member.key })),
      epochs: input.epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.key, created_at: epoch.created_at })),
      current_epoch: input.epochs.length,
    }),
    'utf8',
  );
}

interface ModelMember {
  account: TeamAccount;
  role: Role;
}

interface ModelEpoch {
  epoch: number;
  keys: RsaPair;
  createdAt: string;
}

/** A draft of the next version: the body to send, and what to make the model's state once stored. */
export interface Draft<Body> {
  body: Body;
  bytes: Buffer;
  commit(): void;
}

/** One team folder as honest browsers see it: its members, epochs (with private keys) and head. */
export class TeamModel {
  members: ModelMember[] = [];
  epochs: ModelEpoch[] = [];
  head: { seq: number; hash: string } | null = null;

  constructor(readonly folderId: number) {}

  get currentEpoch(): ModelEpoch {
    return this.epochs[this.epochs.length - 1]!;
  }

  private manifestFor(signer: TeamAccount, members: ModelMember[], epochs: ModelEpoch[], seq: number, prev: string | null): Buffer {
    return manifestBytes({
      folderId: this.folderId,
      seq,
      prev,
      signer: { user_id: signer.id, key: signer.keys.hash },
      members: members.map((member) => ({ user_id: member.account.id, username: member.account.username, role: member.role, key: member.account.keys.hash })),
      epochs: epochs.map((epoch) => ({ epoch: epoch.epoch, key: epoch.keys.hash, created_at: epoch.createdAt })),
    });
  }

  /** Version 1 by `owner` with `others`, every file key (ids given) sealed to epoch 1. */
  share(owner: TeamAccount, others: Array<{ account: TeamAccount; role: Exclude<Role, 'owner'> }>, fileIds: number[]): Draft<ShareTeamRequest> {
    const members: ModelMember[] = [{ account: owner, role: 'owner' }, ...others];
    const epoch: ModelEpoch = { epoch: 1, keys: rsaPair(), createdAt: new Date().toISOString() };
    const bytes = this.manifestFor(owner, members, [epoch], 1, null);
    const body: ShareTeamRequest = {
      manifest: bytes.toString('base64'),
      signature: signManifest(owner.keys.privateKey, bytes),
      epoch: { epoch: 1, public_key_spki: epoch.keys.spki },
      envelopes: members.map((member) => ({ user_id: member.account.id, epoch: 1, envelope: sealEnvelope(member.account.keys, this.folderId, 1, epoch.keys.privateKey) })),
      rekeyed_files: fileIds.map((id) => ({ file_id: id, encrypted_key: sealTo(epoch.keys.spki, randomBytes(32)) })),
    };
    return {
      body,
      bytes,
      commit: () => {
        this.members = members;
        this.epochs = [epoch];
        this.head = { seq: 1, hash: sha256Hex(bytes) };
      },
    };
  }

  /** The next version signed by `signer`: members added (envelopes of every epoch), removed (a new epoch), roles changed. */
  change(
    signer: TeamAccount,
    change: { add?: Array<{ account: TeamAccount; role: Exclude<Role, 'owner'> }>; remove?: TeamAccount[]; setRole?: Array<{ account: TeamAccount; role: Exclude<Role, 'owner'> }> },
  ): Draft<ChangeTeamRequest> {
    if (!this.head) throw new Error('share first');
    const removed = new Set((change.remove ?? []).map((account) => account.id));
    const roles = new Map((change.setRole ?? []).map((item) => [item.account.id, item.role]));
    const members: ModelMember[] = [
      ...this.members.filter((member) => !removed.has(member.account.id)).map((member) => ({ account: member.account, role: roles.get(member.account.id) ?? member.role })),
      ...(change.add ?? []),
    ];
    const epochs = [...this.epochs];
    const newEpoch = removed.size > 0 ? { epoch: epochs.length + 1, keys: rsaPair(), createdAt: new Date().toISOString() } : undefined;
    if (newEpoch) epochs.push(newEpoch);
    const bytes = this.manifestFor(signer, members, epochs, this.head.seq + 1, this.head.hash);
    const envelopes: ChangeTeamRequest['envelopes'] = [];
    if (newEpoch) {
      for (const member of members) envelopes.push({ user_id: member.account.id, epoch: newEpoch.epoch, envelope: sealEnvelope(member.account.keys, this.folderId, newEpoch.epoch, newEpoch.keys.privateKey) });
    }
    for (const added of change.add ?? []) {
      for (const epoch of epochs) {
        if (epoch === newEpoch) continue;
        envelopes.push({ user_id: added.account.id, epoch: epoch.epoch, envelope: sealEnvelope(added.account.keys, this.folderId, epoch.epoch, epoch.keys.privateKey) });
      }
    }
    const body: ChangeTeamRequest = {
      expected_seq: this.head.seq,
      manifest: bytes.toString('base64'),
      signature: signManifest(signer.keys.privateKey, bytes),
      ...(newEpoch ? { new_epoch: { epoch: newEpoch.epoch, public_key_spki: newEpoch.keys.spki } } : {}),
      envelopes,
    };
    const seq = this.head.seq + 1;
    return {
      body,
      bytes,
      commit: () => {
        this.members = members;
        this.epochs = epochs;
        this.head = { seq, hash: sha256Hex(bytes) };
      },
    };
  }
}
