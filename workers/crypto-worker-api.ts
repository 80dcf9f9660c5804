/**
 * What one crypto worker offers over Comlink. Keys stay in this worker's KeyStore and are named by
 * id; byte arrays coming back are transferred, not copied. Every method is small: the work is in
 * crypto/ (formats and keys) and in the job classes beside this file.
 */
import { wordlist as BIP39_ENGLISH } from '@scure/bip39/wordlists/english.js';
import { transfer } from 'comlink';
import {
  asCipherBytes,
  type FileIvBase64,
  type LinkFragment,
  type LinkPasswordVerifier,
  type PublicKeySpki,
  type Sha256Hex,
  type WrappedFileKey,
  decodeBase64,
  encodeBase64,
  type Bytes,
  CryptoError,
  encodeFileIv,
  generateFileIv,
  generateFileKey,
  parseFileIv,
  unwrapFileKey,
  wrapFileKey,
  exportPublicKeySpki,
  generateKeyPair,
  importPublicKeySpki,
  deriveLinkPasswordVerifier,
  formatLinkFragment,
  openLinkKeys,
  parseLinkFragment,
  protectLinkKeys,
  type LinkPasswordProtection,
  rewrapPrivateKey,
  unwrapPrivateKey,
  wrapPrivateKey,
  type WrappedPrivateKey,
  RecordDecryptor,
  generateStorageKey,
  unwrapStoredFileKey,
  wrapFileKeyForStorage,
  type StoredFileKey,
  DEFAULT_RECORD_SIZE,
  assertRecordSize,
  createIncrementalSha256,
  ONE_SHOT_DIGEST_MAX_BYTES,
  sha256OneShot,
  type AuthSecret,
  deriveAccountSecrets,
  parseAccountKdfParams,
  unwrapPasskeyPrivateKey,
  wrapPrivateKeyForPasskey,
  accountKeysFrom,
  type SeenChain,
  approvalPhrase,
  assertAccountKeyPair,
  formatRecoveryKey,
  generateApprovalRequestKeys,
  generateDeviceKey,
  generateRecoveryKey,
  openDeviceApproval,
  parseRecoveryKey,
  sealDeviceApproval,
  unwrapDevicePrivateKey,
  unwrapRecoveryPrivateKey,
  wrapPrivateKeyForDevice,
  wrapPrivateKeyForRecovery,
  type DeviceApproval,
  type RecoveryKeyText,
  generateOrgRecoveryKeyPair,
  openAdminOrgKeyCopy,
  openMemberRecoveryCopy,
  sealAdminOrgKeyCopy,
  sealMemberRecoveryCopy,
} from '../crypto/index.ts';
import type { ChangeTeamRequest, ShareTeamRequest, TeamAnswer } from '../contract/team-folders.ts';
import type { MultipartFraming } from '../contract/upload-multipart.ts';
import { spoolRefusal, spoolWritableHere, writeSpoolFile, type SpoolOutcome, type SpoolPath } from './ciphertext-spool.ts';
import { BlobRecordReader } from './blob-record-reader.ts';
import { EncryptionJob } from './encryption-job.ts';
import type { HashCheckpoint } from './hash-checkpoints.ts';
import { LocalHashSink, PortHashSink, serveHashPort } from './hash-sinks.ts';
import type { SentSignature } from './sent-signature.ts';
import { encryptWholeFiles, spooledParts, type SpooledGroup, type WholeFileResult } from './whole-file-encryption.ts';
import { KeyStore } from './key-store.ts';
import { publicKeyOfWrappedPrivateKey } from './key-operations.ts';
import type { FileKeysMessage, PasskeyKeySource, SsoKeySource } from './pool-types.ts';
import { changeTeam, openTeam, shareFolder, unwrapFolderFileKey, type OpenedTeam, type ShareFolderInput, type TeamChange, type VerifiedTeam } from './team-operations.ts';

export interface StoredKeyData {
  readonly encryptedPrivateKey: string;
  readonly kdfSalt: string;
}

/** PasskeyKeySource (pool-types.ts) as it reaches the worker: the session's key named by its handle's id. */
export type WorkerPasskeyKeySource =
  | Exclude<PasskeyKeySource, { readonly kind: 'session' }>
  | { readonly kind: 'session'; readonly privateKeyId: string; readonly expectedSpki: string };

/** SsoKeySource (pool-types.ts) as it reaches the worker: an approval names its request's key pair by id, the session its key. */
export type WorkerSsoKeySource =
  | Exclude<SsoKeySource, { readonly kind: 'approval' } | { readonly kind: 'session' }>
  | { readonly kind: 'session'; readonly privateKeyId: string; readonly expectedSpki: string }
  | {
      readonly kind: 'approval';
      readonly requestKeyId: string;
      readonly requestId: string;
      readonly approverSpki: string;
      readonly copy: string;
      readonly expectedSpki: string;
    };

/** A new recovery key (SECRET: its text is shown to the person once, never logged or stored) and the copy under it. */
export interface NewRecoveryKey {
  readonly recoveryKey: RecoveryKeyText;
  readonly recoveryCopy: string;
}

/** A single-sign-on account's new key pair: kept in the worker (privateKeyId), with its first two copies. */
export interface CreatedSsoKeyPair extends NewRecoveryKey {
  readonly privateKeyId: string;
  readonly publicKeySpki: PublicKeySpki;
  readonly deviceCopy: string;
}

export interface CreatedApprovalRequest {
  readonly requestKeyId: string;
  /** base64 SPKI of the request's ECDH P-256 public key, for the server to relay. */
  readonly publicKeySpki: string;
  /** The fingerprint phrase this device shows; the approving device must show the same words. */
  readonly phrase: string;
}

/** A new organisation recovery key: its public key and its private key sealed to the enabling admin. */
export interface CreatedOrgRecoveryKey {
  readonly publicKeySpki: string;
  readonly adminCopy: string;
}

/** Where an admin's copy of the organisation key is opened: the copy, whose it is, and which key it must be. */
export interface OrgKeyCopy {
  readonly adminCopy: string;
  readonly adminUserId: number;
  /** The organisation public key (base64 SPKI); the opened key must be its private half. */
  readonly orgSpki: string;
}

/** What restoring a member's access needs besides the admin's key (docs/api.md "Organisation recovery"). */
export interface MemberRestore {
  readonly memberCopy: string;
  readonly memberUserId: number;
  /** The member's account public key: the opened key must be its private half. */
  readonly memberSpki: string;
  readonly requestId: string;
  readonly requesterSpki: string;
}

export interface GeneratedKeyPair extends WrappedPrivateKey {
  readonly publicKeySpki: PublicKeySpki;
}

export interface OpenEncryptionOptions {
  /** base64 SPKI: the result then carries the file key wrapped for this recipient. */
  readonly recipientPublicKey?: string;
  /** Reuse a file key (and its IV) held by this worker, e.g. to reopen a closed job. */
  readonly keyId?: string;
  readonly iv?: string;
  readonly recordSize?: number;
  /** Hash on another worker: the pool passes one end of a channel to that worker's serveHashPort. */
  readonly hashPort?: MessagePort;
  /**
   * A resumed upload: the hash state (base64 of hash-wasm's saved state) after the first `records`
   * records, from encryptionHashCheckpoint of an earlier page; one that does not load is ignored
   * (the hash then starts at byte 0, with the same result).
   */
  readonly hashFrom?: SavedHashState;
}

/** A hash snapshot as it travels to the page and into the upload journal. */
export interface SavedHashState {
  readonly records: number;
  /** base64 */
  readonly state: string;
}

export interface OpenedEncryption {
  readonly jobId: string;
  readonly keyId: string;
  readonly iv: FileIvBase64;
  readonly wrappedKey: WrappedFileKey | undefined;
  readonly plainLength: number;
  readonly encryptedLength: number;
  readonly recordSize: number;
  /** The format version of the header this job writes (docs/format.md). */
  readonly formatVersion: number;
}

export interface LinkKeyRef {
  readonly fileId: string;
  readonly keyId: string;
}

function transferViews<T extends Uint8Array>(views: T[]): T[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) buffers.add(view.buffer as ArrayBuffer);
  return transfer(views, [...buffers]);
}

/** A saved hash state that is not even base64 is dropped like one that does not load (a hash state is no key material). */
function savedHashFrom(saved: SavedHashState | undefined): HashCheckpoint | undefined {
  if (!saved) return undefined;
  try {
    return { records: saved.records, state: decodeBase64(saved.state, 'hash state') };
  } catch {
    return undefined;
  }
}

/**
 * The private key of a WorkerSsoKeySource, extractable (to be wrapped again within the same call)
 * and checked against the account's public key. A typed recovery key's bytes are zeroed after use.
 */
async function openSsoKeySource(keys: KeyStore, source: WorkerSsoKeySource): Promise<CryptoKey> {
  switch (source.kind) {
    case 'device':
      return unwrapDevicePrivateKey(source.copy, source.deviceKey, source.deviceId, source.expectedSpki, true);
    case 'recovery':
      return withRecoveryKey(source.recoveryKey, (key) => unwrapRecoveryPrivateKey(source.copy, key, source.username, source.expectedSpki, true));
    case 'approval':
      return openDeviceApproval(keys.request(source.requestKeyId), source.requestId, source.approverSpki, source.copy, source.expectedSpki, true);
    case 'password': {
      const privateKey = await unwrapPrivateKey(source.data, source.password, true);
      await assertAccountKeyPair(privateKey, source.expectedSpki);
      return privateKey;
    }
    case 'session':
      return sessionKey(keys, source.privateKeyId, source.expectedSpki);
  }
}

/**
 * The session's private key (a handle of this worker), extractable, when it was opened by a
 * single-sign-on path (key-store.ts) and is the account's key pair: WRONG_KEY for another.
 */
async function sessionKey(keys: KeyStore, privateKeyId: string, expectedSpki: string): Promise<CryptoKey> {
  const privateKey = keys.rewrappable(privateKeyId);
  await assertAccountKeyPair(privateKey, expectedSpki);
  return privateKey;
}

async function withRecoveryKey<T>(typed: string, use: (key: Bytes) => Promise<T>): Promise<T> {
  const key = parseRecoveryKey(typed);
  try {
    return await use(key);
  } finally {
    key.fill(0);
  }
}

async function newRecoveryCopy(privateKey: CryptoKey, username: string): Promise<NewRecoveryKey> {
  const key = generateRecoveryKey();
  try {
    return { recoveryCopy: await wrapPrivateKeyForRecovery(privateKey, key, username), recoveryKey: formatRecoveryKey(key) };
  } finally {
    key.fill(0);
  }
}

export function createCryptoWorkerApi() {
  const keys = new KeyStore();
  const encryptions = new Map<string, EncryptionJob>();

  function job<T>(jobs: Map<string, T>, id: string): T {
    const found = jobs.get(id);
    if (!found) throw new CryptoError('WORKER_FAILED', 'no such job in this worker (closed or never opened)');
    return found;
  }

  return {
    /** The pool's heartbeat (worker-liveness.ts): answered whenever this worker's event loop runs. */
    ping(): true {
      return true;
    },
    // ---- keys ----
    releaseKey(keyId: string): void {
      keys.delete(keyId);
    },
    sendKey(keyId: string, port: MessagePort): void {
      keys.send(keyId, port);
    },
    receiveKey(port: MessagePort): Promise<void> {
      return keys.receive(port);
    },
    /**
     * Posts file keys to another context (the service worker streaming a download) as one
     * FileKeysMessage, then closes the port: the keys go worker to service worker, never through
     * the page's thread.
     */
    sendFileKeys(keyIds: readonly string[], port: MessagePort): void {
      const message: FileKeysMessage = { keys: keyIds.map((id) => ({ id, key: keys.get(id, 'file') })) };
      port.postMessage(message);
      port.close();
    },
    async wrapFileKey(keyId: string, recipientPublicKey: string): Promise<WrappedFileKey> {
      return wrapFileKey(keys.get(keyId, 'file'), await importPublicKeySpki(recipientPublicKey));
    },
    async unwrapFileKey(privateKeyId: string, wrapped: string): Promise<string> {
      return keys.add('file', await unwrapFileKey(wrapped, keys.get(privateKeyId, 'private')));
    },
    // Resuming after a reload: the file key leaves the worker only wrapped under the
    // origin's non-extractable storage key (crypto/stored-file-key.ts).
    generateStorageKey(): Promise<CryptoKey> {
      return generateStorageKey();
    },
    wrapFileKeyForStorage(keyId: string, storageKey: CryptoKey, context: string): Promise<StoredFileKey> {
      return wrapFileKeyForStorage(keys.get(keyId, 'file'), storageKey, context);
    },
    async unwrapStoredFileKey(stored: StoredFileKey, storageKey: CryptoKey, context: string): Promise<string> {
      return keys.add('file', await unwrapStoredFileKey(stored, storageKey, context));
    },
    /**
     * Zero-knowledge sign-in: argon2id + HKDF here, off the main thread; only the auth secret
     * leaves. `username` is the name signed in with: a block bound to another is KDF_NAME_MISMATCH.
     */
    async deriveAuthSecret(password: string, kdfParams: string, username: string): Promise<AuthSecret> {
      return (await deriveAccountSecrets(password, kdfParams, username)).authSecret;
    },
    /** The private key comes back wrapped under scheme 2 with the account's parameter block only. */
    async generateWrappedKeyPair(password: string, accountKdfParams: string): Promise<GeneratedKeyPair> {
      parseAccountKdfParams(accountKdfParams);
      const pair = await generateKeyPair();
      const wrapped = await wrapPrivateKey(pair.privateKey, password, accountKdfParams);
      return { ...wrapped, publicKeySpki: await exportPublicKeySpki(pair.publicKey) };
    },
    /**
     * Kept as the worker keeps account keys (crypto/team-keys.ts): its RSA-OAEP and RSA-PSS imports,
     * neither extractable, made from a copy that is extractable only inside this call.
     */
    async unlockPrivateKey(data: StoredKeyData, password: string): Promise<string> {
      return keys.addAccount(await accountKeysFrom(await unwrapPrivateKey(data, password, true)));
    },
    /**
     * Opens a passkey's copy with its PRF output (transferred in; zeroed here whatever happens) and
     * keeps the key; WRONG_PASSKEY when the copy is not this credential's. `expectedSpki` (an
     * account without a password, on /sso): checked like the other single-sign-on copies (WRONG_KEY
     * for another key pair), and the key is kept re-wrappable like theirs (key-store.ts).
     */
    async unlockPrivateKeyWithPasskey(encryptedPrivateKey: string, prfOutput: ArrayBuffer, credentialId: string, expectedSpki?: string): Promise<string> {
      const prf = new Uint8Array(prfOutput);
      try {
        const privateKey = await unwrapPasskeyPrivateKey(encryptedPrivateKey, prf, credentialId, true);
        if (expectedSpki === undefined) return keys.addAccount(await accountKeysFrom(privateKey));
        await assertAccountKeyPair(privateKey, expectedSpki);
        return keys.addAccount(await accountKeysFrom(privateKey), privateKey);
      } finally {
        prf.fill(0);
      }
    },
    /** The copy of the private key for a new passkey (its PRF output transferred in, zeroed here). */
    async wrapPrivateKeyForPasskey(source: WorkerPasskeyKeySource, prfOutput: ArrayBuffer, credentialId: string): Promise<string> {
      const prf = new Uint8Array(prfOutput);
      const sourcePrf = source.kind === 'passkey' ? new Uint8Array(source.prfOutput) : null;
      try {
        const privateKey =
          source.kind === 'password'
            ? await unwrapPrivateKey(source.data, source.password, true)
            : source.kind === 'session'
              ? await sessionKey(keys, source.privateKeyId, source.expectedSpki)
              : await unwrapPasskeyPrivateKey(source.encryptedPrivateKey, sourcePrf!, source.credentialId, true);
        return await wrapPrivateKeyForPasskey(privateKey, prf, credentialId);
      } finally {
        prf.fill(0);
        sourcePrf?.fill(0);
      }
    },
    // ---- accounts without a password (docs/format.md, "The private key after a single sign-on") ----
    // Every opened copy is checked against `expectedSpki`, the account's public key: another key pair is WRONG_KEY.
    /** A new key pair, kept here like an unlocked one, with its copies for this device and under a new recovery key. */
    async createSsoKeyPair(username: string, deviceKey: CryptoKey, deviceId: string): Promise<CreatedSsoKeyPair> {
      const pair = await generateKeyPair();
      const deviceCopy = await wrapPrivateKeyForDevice(pair.privateKey, deviceKey, deviceId);
      const recovery = await newRecoveryCopy(pair.privateKey, username);
      const publicKeySpki = await exportPublicKeySpki(pair.publicKey);
      return { privateKeyId: keys.addAccount(await accountKeysFrom(pair.privateKey), pair.privateKey), publicKeySpki, deviceCopy, ...recovery };
    },
    /** A new device key: AES-256-GCM, not extractable (the page keeps the CryptoKey in IndexedDB). */
    generateDeviceKey(): Promise<CryptoKey> {
      return generateDeviceKey();
    },
    async unlockPrivateKeyWithDevice(copy: string, deviceKey: CryptoKey, deviceId: string, expectedSpki: string): Promise<string> {
      const privateKey = await unwrapDevicePrivateKey(copy, deviceKey, deviceId, expectedSpki, true);
      return keys.addAccount(await accountKeysFrom(privateKey), privateKey);
    },
    /** `recoveryKey` as typed (read leniently; MALFORMED unless 32 base32 characters). */
    async unlockPrivateKeyWithRecoveryKey(copy: string, recoveryKey: string, username: string, expectedSpki: string): Promise<string> {
      const privateKey = await withRecoveryKey(recoveryKey, (key) => unwrapRecoveryPrivateKey(copy, key, username, expectedSpki, true));
      return keys.addAccount(await accountKeysFrom(privateKey), privateKey);
    },
    /** A new device's request: its ECDH key pair is kept here (requestKeyId); the public key and phrase go to the page. */
    async createApprovalRequest(): Promise<CreatedApprovalRequest> {
      const request = await generateApprovalRequestKeys();
      const phrase = await approvalPhrase(request.publicKeySpki, BIP39_ENGLISH);
      return { requestKeyId: keys.addRequest(request), publicKeySpki: request.publicKeySpki, phrase };
    },
    /** The phrase the approving device shows for the requester's public key as the server handed it. */
    approvalPhrase(requesterSpki: string): Promise<string> {
      return approvalPhrase(requesterSpki, BIP39_ENGLISH);
    },
    /** The approving device: the private key from `source`, sealed to the requester's key for `requestId`. */
    async approveDeviceRequest(source: WorkerSsoKeySource, requestId: string, requesterSpki: string): Promise<DeviceApproval> {
      return sealDeviceApproval(await openSsoKeySource(keys, source), requestId, requesterSpki);
    },
    /** The requesting device: opens the approver's copy with the request's key pair and keeps the key. */
    async unlockPrivateKeyWithApproval(requestKeyId: string, requestId: string, approverSpki: string, copy: string, expectedSpki: string): Promise<string> {
      const opened = await openDeviceApproval(keys.request(requestKeyId), requestId, approverSpki, copy, expectedSpki, true);
      return keys.addAccount(await accountKeysFrom(opened), opened);
    },
    /** This device's copy of the private key from `source` (a device trusted from now on). */
    async wrapPrivateKeyForDevice(source: WorkerSsoKeySource, deviceKey: CryptoKey, deviceId: string): Promise<string> {
      return wrapPrivateKeyForDevice(await openSsoKeySource(keys, source), deviceKey, deviceId);
    },
    /** A new recovery key and the private key from `source` under it (the old recovery copy is then to be replaced). */
    async wrapPrivateKeyForRecovery(source: WorkerSsoKeySource, username: string): Promise<NewRecoveryKey> {
      return newRecoveryCopy(await openSsoKeySource(keys, source), username);
    },
    // ---- the organisation recovery policy (docs/format.md, "The organisation recovery key") ----
    /** A new organisation key pair; its private key leaves only sealed to the enabling admin's public key. */
    async createOrgRecoveryKey(adminSpki: string, adminUserId: number): Promise<CreatedOrgRecoveryKey> {
      const pair = await generateOrgRecoveryKeyPair();
      return { publicKeySpki: pair.publicKeySpki, adminCopy: await sealAdminOrgKeyCopy(pair.privateKey, pair.publicKeySpki, adminUserId, adminSpki) };
    },
    /** The member's private key from `source`, sealed to the organisation key for `memberUserId` (the key pair of `source.expectedSpki`). */
    async wrapPrivateKeyForOrgRecovery(source: WorkerSsoKeySource, orgSpki: string, memberUserId: number): Promise<string> {
      return sealMemberRecoveryCopy(await openSsoKeySource(keys, source), orgSpki, memberUserId, source.expectedSpki);
    },
    /**
     * An admin restores a member's access: the organisation key from the admin's copy (opened with
     * the admin's unlocked key), the member's key from their copy, sealed to the member's request.
     * Neither key leaves this call.
     */
    async restoreMemberAccess(adminKeyId: string, org: OrgKeyCopy, restore: MemberRestore): Promise<DeviceApproval> {
      const orgKey = await openAdminOrgKeyCopy(org.adminCopy, keys.get(adminKeyId, 'private'), org.adminUserId, org.orgSpki);
      const memberKey = await openMemberRecoveryCopy(restore.memberCopy, orgKey, org.orgSpki, restore.memberUserId, restore.memberSpki, true);
      return sealDeviceApproval(memberKey, restore.requestId, restore.requesterSpki);
    },
    /** An admin who holds the organisation key seals it to another admin's public key. */
    async sealOrgKeyForAdmin(adminKeyId: string, org: OrgKeyCopy, target: { readonly userId: number; readonly spki: string }): Promise<string> {
      const orgKey = await openAdminOrgKeyCopy(org.adminCopy, keys.get(adminKeyId, 'private'), org.adminUserId, org.orgSpki, true);
      return sealAdminOrgKeyCopy(orgKey, org.orgSpki, target.userId, target.spki);
    },
    /** Opens `data` with `oldPassword` (either scheme) and wraps it under scheme 2 with the account's block. */
    rewrapPrivateKey(data: StoredKeyData, oldPassword: string, newPassword: string, accountKdfParams: string): Promise<WrappedPrivateKey> {
      parseAccountKdfParams(accountKdfParams);
      return rewrapPrivateKey(data, oldPassword, newPassword, accountKdfParams);
    },
    /** Restore: the public key of a backup's wrapped private key (workers/key-operations.ts). */
    publicKeyOfWrappedPrivateKey(data: StoredKeyData, password: string): Promise<PublicKeySpki> {
      return publicKeyOfWrappedPrivateKey(data, password);
    },
    // ---- team folders (workers/team-operations.ts) ----
    openTeam(privateKeyId: string, answer: TeamAnswer, seen: SeenChain, expectedFolderId?: number): Promise<OpenedTeam> {
      return openTeam(keys, privateKeyId, answer, seen, expectedFolderId);
    },
    unwrapFolderFileKey(folderKeysId: string, epoch: number, encryptedKey: string): Promise<string> {
      return unwrapFolderFileKey(keys, folderKeysId, epoch, encryptedKey);
    },
    shareFolder(privateKeyId: string, input: ShareFolderInput): Promise<ShareTeamRequest> {
      return shareFolder(keys, privateKeyId, input);
    },
    changeTeam(privateKeyId: string, folderKeysId: string, team: VerifiedTeam, change: TeamChange): Promise<ChangeTeamRequest> {
      return changeTeam(keys, privateKeyId, folderKeysId, team, change);
    },
    formatLinkFragment(files: readonly LinkKeyRef[]): Promise<LinkFragment> {
      return formatLinkFragment(files.map(({ fileId, keyId }) => ({ fileId, key: keys.get(keyId, 'file') })));
    },
    async parseLinkFragment(fragment: string): Promise<Record<string, string>> {
      const parsed = await parseLinkFragment(fragment);
      return Object.fromEntries([...parsed].map(([fileId, key]) => [fileId, keys.add('file', key)]));
    },
    protectLinkKeys(password: string, files: readonly LinkKeyRef[]): Promise<LinkPasswordProtection> {
      return protectLinkKeys(password, files.map(({ fileId, keyId }) => ({ fileId, key: keys.get(keyId, 'file') })));
    },
    async openLinkKeys(password: string, reencryptedKeys: Record<string, string>): Promise<Record<string, string>> {
      const opened = await openLinkKeys(password, reencryptedKeys);
      return Object.fromEntries([...opened].map(([fileId, key]) => [fileId, keys.add('file', key)]));
    },
    deriveLinkPasswordVerifier(password: string, kdfParams: string): Promise<LinkPasswordVerifier> {
      return deriveLinkPasswordVerifier(password, kdfParams);
    },

    // ---- hashing ----
    /** SHA-256 of a whole Blob, read once: one-shot digest when small, hash-wasm otherwise. */
    async hashBlob(blob: Blob): Promise<Sha256Hex> {
      if (blob.size <= ONE_SHOT_DIGEST_MAX_BYTES) return sha256OneShot(new Uint8Array(await blob.arrayBuffer()));
      const hasher = await createIncrementalSha256();
      const reader = new BlobRecordReader(blob, DEFAULT_RECORD_SIZE);
      try {
        for (let record = await reader.next(); record; record = await reader.next()) {
          hasher.update(record.bytes);
          reader.recycle(record.bytes.buffer);
        }
      } finally {
        await reader.close();
      }
      return hasher.digestHex();
    },
    /** This worker hashes what another worker's encryption job sends over `port`. */
    serveHashPort(port: MessagePort): Promise<void> {
      return serveHashPort(port);
    },

    // ---- encryption ----
    async openEncryption(source: Blob, options: OpenEncryptionOptions = {}): Promise<OpenedEncryption> {
      const recordSize = options.recordSize ?? DEFAULT_RECORD_SIZE;
      assertRecordSize(recordSize);
      if ((options.keyId === undefined) !== (options.iv === undefined)) {
        throw new CryptoError('MALFORMED', 'an existing key must be reopened together with its IV');
      }
      // A bad recipient key fails here, before any key is made or any byte is read.
      const recipient = options.recipientPublicKey !== undefined ? await importPublicKeySpki(options.recipientPublicKey) : undefined;
      const keyId = options.keyId ?? keys.add('file', await generateFileKey());
      try {
        const key = keys.get(keyId, 'file');
        const iv = options.iv !== undefined ? parseFileIv(options.iv) : generateFileIv();
        const wrappedKey = recipient ? await wrapFileKey(key, recipient) : undefined;
        const hashSink = options.hashPort ? new PortHashSink(options.hashPort) : await LocalHashSink.create();
        const opened = await EncryptionJob.open({ source, key, iv, recordSize, hashSink, hashFrom: savedHashFrom(options.hashFrom) });
        const jobId = crypto.randomUUID();
        encryptions.set(jobId, opened);
        return {
          jobId,
          keyId,
          iv: encodeFileIv(iv),
          wrappedKey,
          plainLength: opened.plainLength,
          encryptedLength: opened.encryptedLength,
          recordSize: opened.recordSize,
          formatVersion: opened.formatVersion,
        };
      } catch (error) {
        if (options.keyId === undefined) keys.delete(keyId);
        options.hashPort?.close();
        throw error;
      }
    },
    /**
     * Small files, a group per message: each encrypted whole with a key of its own that is wrapped
     * for the recipient and then forgotten (workers/whole-file-encryption.ts). A bad recipient key
     * fails the whole call; anything else fails only its file. Ciphertexts are transferred.
     */
    async encryptWholeFiles(sources: readonly Blob[], recipientPublicKey: string, recordSize: number = DEFAULT_RECORD_SIZE): Promise<WholeFileResult[]> {
      assertRecordSize(recordSize);
      const results = await encryptWholeFiles(sources, await importPublicKeySpki(recipientPublicKey), recordSize);
      return transfer(results, results.flatMap((result) => (result.ok ? [result.ciphertext.buffer as ArrayBuffer] : [])));
    },
    /**
     * The same, with each successful file's whole multipart part (head, ciphertext, fields; with
     * `framing`'s boundary and names) written one after another to the upload spool file at `path`
     * instead of the ciphertexts being sent back: the page's batch body is then a few slices of
     * that file, which the browser reads from disk, and the page never holds the group's ciphertext
     * (docs/upload.md, "Small files through the spool"). Where the spool cannot take them, the
     * ciphertexts come back as encryptWholeFiles gives them, with the reason, so nothing is
     * encrypted twice.
     */
    async encryptWholeFilesToSpool(
      sources: readonly Blob[],
      recipientPublicKey: string,
      path: SpoolPath,
      callLimitMs: number,
      framing: MultipartFraming,
      recordSize: number = DEFAULT_RECORD_SIZE,
    ): Promise<SpooledGroup> {
      assertRecordSize(recordSize);
      const results = await encryptWholeFiles(sources, await importPublicKeySpki(recipientPublicKey), recordSize);
      const spooled = spooledParts(sources, results, framing);
      try {
        if (spooled.pieces.length > 0) await writeSpoolFile(path, spooled.pieces, callLimitMs);
      } catch (error) {
        console.warn('upload spool: small files kept in memory instead', error);
        const refused: SpooledGroup = { spooled: false, ...spoolRefusal(error), results };
        return transfer(refused, results.flatMap((result) => (result.ok ? [result.ciphertext.buffer as ArrayBuffer] : [])));
      }
      return { spooled: true, results: spooled.results };
    },
    async readCiphertext(jobId: string, start: number, end: number): Promise<Uint8Array[]> {
      return transferViews(await job(encryptions, jobId).read(start, end));
    },
    canSpool(): boolean {
      return spoolWritableHere();
    },
    /**
     * Ciphertext bytes [start, end) written to the upload spool file at `path` (workers/ciphertext-spool.ts).
     * Where the spool cannot take them, the bytes come back instead (so they need not be encrypted
     * again) with the reason: 'stalled' (an OPFS call never answered) or 'failed' (disk or quota full).
     * A failure to encrypt still rejects (CryptoError).
     */
    async spoolCiphertext(jobId: string, start: number, end: number, path: SpoolPath, callLimitMs: number): Promise<SpoolOutcome> {
      const pieces = await job(encryptions, jobId).read(start, end);
      try {
        await writeSpoolFile(path, pieces, callLimitMs);
        return { spooled: true };
      } catch (error) {
        console.warn('upload spool: chunk kept in memory instead', error);
        const outcome: SpoolOutcome = { spooled: false, ...spoolRefusal(error), pieces };
        return transfer(outcome, [...new Set(pieces.map((piece) => piece.buffer as ArrayBuffer))]);
      }
    },
    /** The newest hash snapshot within the first `confirmedCipherOffset` ciphertext bytes (resuming after a reload). */
    encryptionHashCheckpoint(jobId: string, confirmedCipherOffset: number): SavedHashState | null {
      const checkpoint = job(encryptions, jobId).hashCheckpoint(confirmedCipherOffset);
      return checkpoint ? { records: checkpoint.records, state: encodeBase64(checkpoint.state) } : null;
    },
    /** The content signature of the records holding ciphertext [0, cipherEnd) (workers/sent-signature.ts). */
    encryptionSignSent(jobId: string, cipherEnd: number): Promise<SentSignature> {
      return job(encryptions, jobId).signSent(cipherEnd);
    },
    /** A resumed upload's check of the file against the stored signature: the ciphertext end it vouches for, or SOURCE_CHANGED. */
    encryptionVerifySent(jobId: string, expected: SentSignature): Promise<number> {
      return job(encryptions, jobId).verifySent(expected);
    },
    /** Records fed to the hash so far: how sha256()'s watch sees that hashing advances. */
    encryptionHashProgress(jobId: string): number {
      return job(encryptions, jobId).hashProgress();
    },
    encryptionSha256(jobId: string): Promise<Sha256Hex> {
      return job(encryptions, jobId).sha256();
    },
    async closeEncryption(jobId: string): Promise<void> {
      const found = encryptions.get(jobId);
      encryptions.delete(jobId);
      await found?.close();
    },
  };
}

export type CryptoWorkerApi = ReturnType<typeof createCryptoWorkerApi>;
