/**
 * CryptoPool: the only way the app does cryptography (style rule 1). One module worker per core
 * (capped at MAX_POOL_SIZE), Comlink-wrapped; work goes to the least busy worker, where "busy" is
 * the estimated seconds of work already assigned (hashing costs ~4.5x encryption per byte).
 *
 *   const pool = CryptoPool.create();
 *   // upload
 *   const session = await pool.openEncryption(file, { recipientPublicKey });
 *   session.encryptedLength; session.iv; session.wrappedKey;   // known before any byte is encrypted
 *   await session.readBody(start, end)                          // ciphertext of any range, as a request body
 *   await session.sha256(); await session.close();
 *   // download: the keys go to the service worker, which decrypts (download-service/)
 *   const privateKey = await pool.unlockPrivateKey(keyData, password);
 *   const fileKey = await pool.unwrapFileKey(privateKey, encryptedKey);
 *   await pool.sendFileKeys([fileKey], keyPort);
 *
 * Placement: a large file's encryption and its SHA-256 may go to two different workers (the
 * encrypting one reads the file once and transfers each record to the hashing one), so one big
 * file uses two cores; several files spread over all workers. Small files stay on one worker.
 * Keys are created inside a worker and named by handles; when an operation needs a key on another
 * worker, the key moves worker-to-worker over a MessageChannel, never through this thread.
 * Full API notes: workers/README.md.
 */
import { transfer, wrap } from 'comlink';
import {
  type LinkFragment,
  type LinkPasswordVerifier,
  type PublicKeySpki,
  type Sha256Hex,
  type WrappedFileKey,
  CryptoError,
  type LinkPasswordProtection,
  type StoredFileKey,
  type WrappedPrivateKey,
  ONE_SHOT_DIGEST_MAX_BYTES,
  type AuthSecret,
  type SeenChain,
  type DeviceApproval,
} from '../crypto/index.ts';
import type { ChangeTeamRequest, ShareTeamRequest, TeamAnswer } from '../contract/team-folders.ts';
import type { MultipartFraming } from '../contract/upload-multipart.ts';
import { settleWithin } from './deadline.ts';
import type { ShareFolderInput, TeamChange, VerifiedTeam } from './team-operations.ts';
import type {
  CreatedOrgRecoveryKey,
  CryptoWorkerApi,
  GeneratedKeyPair,
  MemberRestore,
  OrgKeyCopy,
  NewRecoveryKey,
  SavedHashState,
  StoredKeyData,
  WorkerSsoKeySource,
} from './crypto-worker-api.ts';
import { CiphertextSpool } from './ciphertext-spool.ts';
import { EncryptionSession, HASH_WATCH, type HashWatch } from './encryption-session.ts';
import { WorkerPlacement, type PoolWorker } from './pool-placement.ts';
import { Heartbeat, watchWorker } from './worker-liveness.ts';
import type {
  ApprovalRequestHandle,
  FileKeyHandle,
  FolderKeysHandle,
  HandleKind,
  KeyHandle,
  LinkFileKeyHandle,
  PasskeyKeySource,
  PrivateKeyHandle,
  SsoKeySource,
} from './pool-types.ts';
import { fromWireError, installErrorTransfer } from './wire-errors.ts';
import { SmallFileSpool, smallFilesInMemory, type SmallFileEncryption } from './small-file-spool.ts';
import type { SpooledGroup } from './whole-file-encryption.ts';

export const MAX_POOL_SIZE = 8;
/** Per-core rates in headless Chromium (docs/upload.md, "Measurements behind the choices"); only their ratio matters. */
const SHA256_BYTES_PER_SECOND = 190e6;
const AES_GCM_BYTES_PER_SECOND = 850e6;
const KEY_OPERATION_SECONDS = 0.01;
/** argon2id at the default cost (docs/security.md, "Measured KDF cost"); old scheme-1 data costs less. */
const ARGON2_SECONDS = 0.6;
/** Making an RSA-2048 key pair (about half a second, more on a slow machine). */
const KEY_PAIR_SECONDS = 0.5;
/**
 * Time limits of the team-folder calls: a base that covers making an RSA key pair on a slow,
 * loaded machine (seconds, occasionally), plus each envelope (one RSA-OAEP operation and a
 * signature check or seal) and each re-sealed file key (an RSA-OAEP unwrap and wrap).
 */
export interface TeamOperationLimits {
  readonly baseMs: number;
  readonly perEnvelopeMs: number;
  readonly perFileMs: number;
}
export const TEAM_OPERATION_LIMITS: TeamOperationLimits = { baseMs: 60_000, perEnvelopeMs: 250, perFileMs: 50 };

export interface CryptoPoolOptions {
  /** Number of workers; default navigator.hardwareConcurrency, capped at MAX_POOL_SIZE. */
  readonly size?: number;
  /** For tests and harnesses; the default creates workers/crypto.worker.ts as a module worker. */
  readonly createWorker?: () => Worker;
  /**
   * Where sessions put upload request bodies (EncryptionSession.readBody): 'spool' (default) in the
   * origin-private file system where the browser has it (workers/ciphertext-spool.ts), 'memory' always in memory.
   */
  readonly uploadBodies?: 'spool' | 'memory';
  /** The time limit of each OPFS call of a spooled chunk (default SPOOL_CALL_LIMIT_MS; tests make it short). */
  readonly spoolCallLimitMs?: number;
  /** How the workers are pinged while the pool is busy (worker-liveness.ts; default every 5 s, dead after 6 unanswered; tests make it short). */
  readonly heartbeat?: { readonly intervalMs: number; readonly missedLimit: number };
  /** How sha256() watches the hashing (encryption-session.ts; default HASH_WATCH; tests make it short). */
  readonly hashWatch?: HashWatch;
  /** The team-folder calls' time limits (default TEAM_OPERATION_LIMITS; tests make them short). */
  readonly teamLimits?: TeamOperationLimits;
}

export interface OpenEncryptionOptions {
  /** base64 SPKI of the recipient: the session then carries the wrapped file key. */
  readonly recipientPublicKey?: PublicKeySpki | string;
  /** Record size for this file (default: the format's DEFAULT_RECORD_SIZE). */
  readonly recordSize?: number;
  /** Force where SHA-256 runs ('auto' lets the pool decide); for measurements. */
  readonly hashPlacement?: 'auto' | 'same-worker' | 'other-worker';
  /**
   * Encrypt with this existing key and IV instead of fresh ones: only to continue an upload of the
   * very same bytes (a resumed upload re-produces identical ciphertext). The session's key is then
   * this handle; releasing it stays the caller's job. `hash`: the hash state saved by the earlier
   * session (EncryptionSession.hashCheckpoint), so only the records after it are hashed.
   */
  readonly reuse?: { readonly key: FileKeyHandle; readonly iv: string; readonly hash?: SavedHashState | undefined };
}


/** A single-sign-on account's new key pair (pool.createSsoKeyPair): the handle, the public key, the first two copies. */
export interface SsoKeyPair extends NewRecoveryKey {
  readonly privateKey: PrivateKeyHandle;
  readonly publicKeySpki: PublicKeySpki;
  readonly deviceCopy: string;
}

/** A new device's approval request (pool.createApprovalRequest). */
export interface ApprovalRequest {
  readonly requestKey: ApprovalRequestHandle;
  /** base64 SPKI of the request's ECDH public key, for the server. */
  readonly publicKeySpki: string;
  /** The fingerprint phrase to show; the approving device must show the same words. */
  readonly phrase: string;
}

export type { SmallFileEncryption } from './small-file-spool.ts';

function defaultWorker(): Worker {
  return new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module', name: 'sealdrop-crypto' });
}

export class CryptoPool {
  private readonly placement: WorkerPlacement;
  private spool: Promise<CiphertextSpool | null> | undefined;
  private readonly smallFileSpool = new SmallFileSpool();

  private constructor(
    placement: WorkerPlacement,
    private readonly uploadBodies: 'spool' | 'memory',
    private readonly spoolCallLimitMs: number | undefined,
    private readonly hashWatch: HashWatch,
    private readonly teamLimits: TeamOperationLimits,
  ) {
    this.placement = placement;
  }

  static create(options: CryptoPoolOptions = {}): CryptoPool {
    installErrorTransfer();
    const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
    const size = Math.max(1, Math.min(MAX_POOL_SIZE, options.size ?? cores));
    const create = options.createWorker ?? defaultWorker;
    const beat = new Heartbeat(options.heartbeat?.intervalMs, options.heartbeat?.missedLimit);
    // Liveness lives here, not at the call sites: a worker that dies, or stops answering while work
    // is pending on it, rejects its pending calls with WORKER_FAILED and is replaced
    // (worker-liveness.ts, pool-placement.ts).
    const placement = new WorkerPlacement(size, (index, onDeath) => {
      const worker = create();
      const remote = wrap<CryptoWorkerApi>(worker);
      const liveness = watchWorker(
        worker,
        `crypto worker ${index}`,
        (error) => {
          entry.failure = error;
          onDeath(entry);
        },
        { beat, ping: () => remote.ping() },
      );
      const entry: PoolWorker = { index, worker, liveness, api: liveness.guard(remote), load: 0, failure: undefined };
      return entry;
    });
    return new CryptoPool(placement, options.uploadBodies ?? 'spool', options.spoolCallLimitMs, options.hashWatch ?? HASH_WATCH, options.teamLimits ?? TEAM_OPERATION_LIMITS);
  }

  get size(): number {
    return this.placement.workers.length;
  }

  /** Estimated seconds of work queued per worker (for diagnostics and benchmarks). */
  get loads(): number[] {
    return this.placement.workers.map((w) => w.load);
  }

  /** Which workers hold a key (diagnostics and tests). */
  keyLocations(handle: KeyHandle<HandleKind>): number[] {
    return this.placement.keyLocations(handle);
  }

  terminate(): void {
    this.placement.terminate();
  }

  // ---------------------------------------------------------------- encryption (upload)

  async openEncryption(file: Blob, options: OpenEncryptionOptions = {}): Promise<EncryptionSession> {
    const encryptCost = file.size / AES_GCM_BYTES_PER_SECOND;
    const hashCost = file.size / SHA256_BYTES_PER_SECOND;
    const small = file.size <= ONE_SHOT_DIGEST_MAX_BYTES;
    const [encryptor, hasher] = this.placement.placeEncryption(encryptCost, hashCost, small ? 'same-worker' : options.hashPlacement ?? 'auto');
    encryptor.load += encryptCost;
    hasher.load += hashCost;
    let hashReleased = false;
    const releaseHash = () => {
      if (!hashReleased) {
        hashReleased = true;
        hasher.load -= hashCost;
      }
    };
    let closed = false;
    const release = () => {
      if (!closed) {
        closed = true;
        encryptor.load -= encryptCost;
        releaseHash();
      }
    };
    try {
      let hashPort: MessagePort | undefined;
      if (hasher !== encryptor) {
        const channel = new MessageChannel();
        await hasher.api.serveHashPort(transfer(channel.port1, [channel.port1]));
        hashPort = channel.port2;
      }
      const reuse = options.reuse;
      if (reuse) await this.placement.ensureKeyOn(reuse.key, encryptor);
      const openOptions = {
        ...(options.recordSize !== undefined ? { recordSize: options.recordSize } : {}),
        ...(options.recipientPublicKey !== undefined ? { recipientPublicKey: options.recipientPublicKey } : {}),
        ...(reuse ? { keyId: reuse.key.id, iv: reuse.iv } : {}),
        ...(reuse?.hash ? { hashFrom: reuse.hash } : {}),
        ...(hashPort ? { hashPort } : {}),
      };
      const opened = await encryptor.api.openEncryption(file, hashPort ? transfer(openOptions, [hashPort]) : openOptions);
      const key = reuse ? reuse.key : this.placement.adoptKey<'file'>(opened.keyId, 'file', encryptor);
      const spool = this.uploadBodies === 'spool' ? await (this.spool ??= this.openSpool(encryptor)) : null;
      if (hasher === encryptor) return new EncryptionSession({ api: encryptor.api, closeApi: encryptor.api, opened, key, onClose: release, onHashed: releaseHash, spool, hashWatch: this.hashWatch });
      // Records go to the hashing worker over a port: if it dies, the session's calls fail at once
      // and the job is closed in the encrypting worker, which fails its PortHashSink (hash-sinks.ts)
      // instead of leaving it waiting for an acknowledgement or a digest that will never come.
      const unwatch = hasher.liveness.onFailure(() => void encryptor.api.closeEncryption(opened.jobId).catch(() => undefined));
      return new EncryptionSession({
        api: hasher.liveness.guard(encryptor.api),
        closeApi: encryptor.api,
        opened,
        key,
        onClose: () => {
          unwatch();
          release();
        },
        onHashed: releaseHash,
        spool,
        hashWatch: this.hashWatch,
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The upload spool, where the workers can write it (they all run the same code) and the page can read it. */
  private async openSpool(worker: PoolWorker): Promise<CiphertextSpool | null> {
    return (await worker.api.canSpool()) ? CiphertextSpool.open(this.spoolCallLimitMs) : null;
  }

  /**
   * Small files (each at most WHOLE_FILE_MAX_BYTES), a group in one message to one worker: each
   * encrypted whole with a fresh key wrapped for the recipient, and hashed. One message per group
   * instead of a session per file (five round trips) is what the upload of a folder of thousands of
   * small files needs (workers/whole-file-encryption.ts). Results in the order of `files`; a file
   * that fails carries its error, the others are unaffected. No key handle is returned: the keys
   * are forgotten in the worker once wrapped. Rejects as a whole only for a bad recipient key or a
   * failed worker.
   *
   * With `framing` (the multipart boundary and each file's name and path) and an upload spool, the
   * worker writes each file's whole multipart part into a spool file and the results hold slices
   * of it (workers/small-file-spool.ts); otherwise, or where the spool cannot take them, the
   * ciphertexts themselves.
   */
  async encryptSmallFiles(files: readonly Blob[], options: { recipientPublicKey: PublicKeySpki | string; recordSize?: number; framing?: MultipartFraming }): Promise<SmallFileEncryption[]> {
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    const cost = bytes / AES_GCM_BYTES_PER_SECOND + bytes / SHA256_BYTES_PER_SECOND + files.length * KEY_OPERATION_SECONDS;
    const worker = this.placement.leastBusy();
    const framing = options.framing;
    const spool = framing && this.uploadBodies === 'spool' && this.smallFileSpool.usable ? await (this.spool ??= this.openSpool(worker)) : null;
    if (spool && framing) {
      const name = this.smallFileSpool.nextName();
      const group = await this.placement.run<SpooledGroup>(worker, cost, (w) =>
        w.api.encryptWholeFilesToSpool(files, options.recipientPublicKey, spool.pathOf(name), spool.callLimitMs, framing, options.recordSize),
      );
      const accepted = await this.smallFileSpool.accept(spool, name, group, framing.boundary);
      if (accepted) return accepted;
    }
    const results = await this.placement.run(worker, cost, (w) => w.api.encryptWholeFiles(files, options.recipientPublicKey, options.recordSize));
    return smallFilesInMemory(results);
  }

  /** SHA-256 of a file without encrypting it (e.g. when only the hash is missing after a reload). */
  hashFile(file: Blob): Promise<Sha256Hex> {
    return this.placement.run(this.placement.leastBusy(), file.size / SHA256_BYTES_PER_SECOND, (w) => w.api.hashBlob(file));
  }


  // ---------------------------------------------------------------- resuming after a reload

  /**
   * A new per-origin storage key: AES-GCM, non-extractable, for wrapping only. The page keeps the
   * CryptoKey object in IndexedDB (structured clone keeps it non-extractable) and hands it back to
   * the calls below; its bytes can never be read.
   */
  createStorageKey(): Promise<CryptoKey> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, (w) => w.api.generateStorageKey());
  }

  /** The file key wrapped under the storage key, bound to `context` (the queue entry's identity). */
  exportFileKeyForStorage(key: FileKeyHandle, storageKey: CryptoKey, context: string): Promise<StoredFileKey> {
    return this.placement.run(this.placement.holderOf(key), KEY_OPERATION_SECONDS, (w) => w.api.wrapFileKeyForStorage(key.id, storageKey, context));
  }

  /** A stored file key back in a worker; CryptoError INTEGRITY if it does not open (wrong key or context). */
  importStoredFileKey(stored: StoredFileKey, storageKey: CryptoKey, context: string): Promise<FileKeyHandle> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, async (w) =>
      this.placement.adoptKey<'file'>(await w.api.unwrapStoredFileKey({ wrapped: stored.wrapped, nonce: stored.nonce }, storageKey, context), 'file', w),
    );
  }

  // ---------------------------------------------------------------- the admin's key pair

  /**
   * The authentication secret the server receives instead of the login password (docs/format.md,
   * "Login key derivation"); argon2id runs in a worker, never on the page's thread.
   */
  deriveAuthSecret(password: string, kdfParams: string, username: string): Promise<AuthSecret> {
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS, (w) => w.api.deriveAuthSecret(password, kdfParams, username));
  }

  /**
   * New RSA-OAEP key pair; the private key comes back only wrapped under the login password with
   * the account's scheme-2 parameter block (the pre-login answer).
   */
  generateWrappedKeyPair(password: string, accountKdfParams: string): Promise<GeneratedKeyPair> {
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS + 0.5, (w) => w.api.generateWrappedKeyPair(password, accountKdfParams));
  }

  /** Opens stored key data (or a backup); throws CryptoError('WRONG_PASSWORD') for a wrong password. */
  unlockPrivateKey(data: StoredKeyData, password: string): Promise<PrivateKeyHandle> {
    const worker = this.placement.leastBusy();
    return this.placement.run(worker, ARGON2_SECONDS, async (w) =>
      this.placement.adoptKey<'private'>(await w.api.unlockPrivateKey({ encryptedPrivateKey: data.encryptedPrivateKey, kdfSalt: data.kdfSalt }, password), 'private', w),
    );
  }

  /**
   * Opens a passkey's copy of the private key (docs/format.md, "The private key under a passkey").
   * `prfOutput` is transferred to the worker (this thread's buffer is detached, the worker zeroes
   * its bytes): the PRF output and the key derived from it never exist on the page beyond the
   * WebAuthn answer. WRONG_PASSKEY when the copy is not this credential's.
   */
  unlockPrivateKeyWithPasskey(encryptedPrivateKey: string, prfOutput: ArrayBuffer, credentialId: string, expectedSpki?: string): Promise<PrivateKeyHandle> {
    const worker = this.placement.leastBusy();
    return this.placement.run(worker, KEY_OPERATION_SECONDS, async (w) =>
      this.placement.adoptKey<'private'>(await w.api.unlockPrivateKeyWithPasskey(encryptedPrivateKey, transfer(prfOutput, [prfOutput]), credentialId, expectedSpki), 'private', w),
    );
  }

  /**
   * A new passkey's copy of the private key, from the password's key data, another passkey's copy
   * (PRF outputs transferred) or the session's key (on the worker holding it).
   */
  wrapPrivateKeyForPasskey(source: PasskeyKeySource, prfOutput: ArrayBuffer, credentialId: string): Promise<string> {
    if (source.kind === 'session') {
      const { privateKey, expectedSpki } = source;
      return this.placement.run(this.placement.holderOf(privateKey), KEY_OPERATION_SECONDS, (w) =>
        w.api.wrapPrivateKeyForPasskey({ kind: 'session', privateKeyId: privateKey.id, expectedSpki }, transfer(prfOutput, [prfOutput]), credentialId),
      );
    }
    const transferred = source.kind === 'passkey' ? [prfOutput, source.prfOutput] : [prfOutput];
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS, (w) => w.api.wrapPrivateKeyForPasskey(transfer(source, transferred), prfOutput, credentialId));
  }

  // ---------------------------------------------------------------- accounts without a password

  /**
   * docs/format.md, "The private key after a single sign-on". The private key stays in the
   * workers (handles only); `expectedSpki` is the account's public key (base64 SPKI, as the server
   * keeps it), and a copy that opens to another key pair is WRONG_KEY, as is a copy under another
   * key or bound to another device, username or request. The recovery key's text comes to the
   * page only when new (to be shown once) and when typed back. SECRET: never log it.
   */
  async createSsoKeyPair(username: string, deviceKey: CryptoKey, deviceId: string): Promise<SsoKeyPair> {
    return this.placement.run(this.placement.leastBusy(), KEY_PAIR_SECONDS, async (w) => {
      const { privateKeyId, ...created } = await w.api.createSsoKeyPair(username, deviceKey, deviceId);
      return { ...created, privateKey: this.placement.adoptKey<'private'>(privateKeyId, 'private', w) };
    });
  }

  /** A new device key: AES-256-GCM, not extractable. The page keeps the CryptoKey in IndexedDB and hands it back to the calls here. */
  async generateDeviceKey(): Promise<CryptoKey> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, (w) => w.api.generateDeviceKey());
  }

  async unlockPrivateKeyWithDevice(copy: string, deviceKey: CryptoKey, deviceId: string, expectedSpki: string): Promise<PrivateKeyHandle> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, async (w) =>
      this.placement.adoptKey<'private'>(await w.api.unlockPrivateKeyWithDevice(copy, deviceKey, deviceId, expectedSpki), 'private', w),
    );
  }

  /** `recoveryKey` as the person typed it (any case, dashes and spaces or none; MALFORMED unless 32 base32 characters). */
  async unlockPrivateKeyWithRecoveryKey(copy: string, recoveryKey: string, username: string, expectedSpki: string): Promise<PrivateKeyHandle> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, async (w) =>
      this.placement.adoptKey<'private'>(await w.api.unlockPrivateKeyWithRecoveryKey(copy, recoveryKey, username, expectedSpki), 'private', w),
    );
  }

  /** A new device asks to be approved: its ECDH key pair stays in a worker (release the handle when the request is over). */
  async createApprovalRequest(): Promise<ApprovalRequest> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, async (w) => {
      const { requestKeyId, ...request } = await w.api.createApprovalRequest();
      return { ...request, requestKey: this.placement.adoptKey<'request'>(requestKeyId, 'request', w) };
    });
  }

  /** The phrase the approving device shows for the requester's public key (base64 SPKI) as the server handed it. */
  async approvalPhrase(requesterSpki: string): Promise<string> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, (w) => w.api.approvalPhrase(requesterSpki));
  }

  /** The approving device seals the private key (from `source`) to the requester's public key for request `requestId`. */
  async approveDeviceRequest(source: SsoKeySource, requestId: string, requesterSpki: string): Promise<DeviceApproval> {
    return this.withSsoSource(source, (w, inWorker) => w.api.approveDeviceRequest(inWorker, requestId, requesterSpki));
  }

  /** The requesting device opens the approval with its request's key pair; the private key stays in that worker. */
  async unlockPrivateKeyWithApproval(requestKey: ApprovalRequestHandle, requestId: string, approverSpki: string, copy: string, expectedSpki: string): Promise<PrivateKeyHandle> {
    return this.placement.run(this.placement.holderOf(requestKey), KEY_OPERATION_SECONDS, async (w) =>
      this.placement.adoptKey<'private'>(await w.api.unlockPrivateKeyWithApproval(requestKey.id, requestId, approverSpki, copy, expectedSpki), 'private', w),
    );
  }

  /** This device's copy of the private key from `source`, sealed under its device key for `deviceId`. */
  async wrapPrivateKeyForDevice(source: SsoKeySource, deviceKey: CryptoKey, deviceId: string): Promise<string> {
    return this.withSsoSource(source, (w, inWorker) => w.api.wrapPrivateKeyForDevice(inWorker, deviceKey, deviceId));
  }

  /** A new recovery key (its text, to be shown once) and the private key from `source` under it. */
  async wrapPrivateKeyForRecovery(source: SsoKeySource, username: string): Promise<NewRecoveryKey> {
    return this.withSsoSource(source, (w, inWorker) => w.api.wrapPrivateKeyForRecovery(inWorker, username));
  }

  // ---------------------------------------------------------------- the organisation recovery policy

  /** A new organisation key pair (docs/format.md, "The organisation recovery key"): its public key and its private key sealed to the admin's public key. */
  async createOrgRecoveryKey(adminSpki: string, adminUserId: number): Promise<CreatedOrgRecoveryKey> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, (w) => w.api.createOrgRecoveryKey(adminSpki, adminUserId));
  }

  /** A member's copy for the organisation key: the private key from `source` sealed to `orgSpki` for `memberUserId`. */
  async wrapPrivateKeyForOrgRecovery(source: SsoKeySource, orgSpki: string, memberUserId: number): Promise<string> {
    return this.withSsoSource(source, (w, inWorker) => w.api.wrapPrivateKeyForOrgRecovery(inWorker, orgSpki, memberUserId));
  }

  /** An admin answers a member's approval request with the member's key, opened through the organisation key; both keys stay in the worker. */
  async restoreMemberAccess(adminKey: PrivateKeyHandle, org: OrgKeyCopy, restore: MemberRestore): Promise<DeviceApproval> {
    return this.placement.run(this.placement.holderOf(adminKey), KEY_OPERATION_SECONDS, (w) => w.api.restoreMemberAccess(adminKey.id, org, restore));
  }

  /** An admin who holds the organisation key seals it to another admin's public key. */
  async sealOrgKeyForAdmin(adminKey: PrivateKeyHandle, org: OrgKeyCopy, target: { readonly userId: number; readonly spki: string }): Promise<string> {
    return this.placement.run(this.placement.holderOf(adminKey), KEY_OPERATION_SECONDS, (w) => w.api.sealOrgKeyForAdmin(adminKey.id, org, target));
  }

  /** Runs `task` where `source` can be opened: an approval on the worker holding its request's key pair, the session's key on its holder. */
  private async withSsoSource<T>(source: SsoKeySource, task: (w: PoolWorker, source: WorkerSsoKeySource) => Promise<T>): Promise<T> {
    if (source.kind === 'approval') {
      const { requestKey, ...rest } = source;
      return this.placement.run(this.placement.holderOf(requestKey), KEY_OPERATION_SECONDS, (w) => task(w, { ...rest, requestKeyId: requestKey.id }));
    }
    if (source.kind === 'session') {
      const { privateKey, expectedSpki } = source;
      return this.placement.run(this.placement.holderOf(privateKey), KEY_OPERATION_SECONDS, (w) => task(w, { kind: 'session', privateKeyId: privateKey.id, expectedSpki }));
    }
    return this.placement.run(this.placement.leastBusy(), source.kind === 'password' ? ARGON2_SECONDS : KEY_OPERATION_SECONDS, (w) => task(w, source));
  }

  /**
   * The same private key under another password or parameter block (password change, restore of
   * an older backup, an account's first sign-in on scheme 2): opened with `oldPassword` under its
   * own block, wrapped under `newPassword` and the account's scheme-2 block (fresh IV).
   */
  rewrapPrivateKey(data: StoredKeyData, oldPassword: string, newPassword: string, accountKdfParams: string): Promise<WrappedPrivateKey> {
    return this.placement.run(this.placement.leastBusy(), 2 * ARGON2_SECONDS, (w) =>
      w.api.rewrapPrivateKey({ encryptedPrivateKey: data.encryptedPrivateKey, kdfSalt: data.kdfSalt }, oldPassword, newPassword, accountKdfParams),
    );
  }

  /** Restore: the public key belonging to a wrapped private key (a backup holds no public key). */
  publicKeyOfWrappedPrivateKey(data: StoredKeyData, password: string): Promise<PublicKeySpki> {
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS, (w) =>
      w.api.publicKeyOfWrappedPrivateKey({ encryptedPrivateKey: data.encryptedPrivateKey, kdfSalt: data.kdfSalt }, password),
    );
  }

  /** Opens a file's encrypted key with the unlocked private key; WRONG_KEY if it was not wrapped for it. */
  async unwrapFileKey(privateKey: PrivateKeyHandle, encryptedKey: string): Promise<FileKeyHandle> {
    const worker = this.placement.holderOf(privateKey);
    return this.placement.run(worker, KEY_OPERATION_SECONDS, async (w) => this.placement.adoptKey<'file'>(await w.api.unwrapFileKey(privateKey.id, encryptedKey), 'file', w));
  }

  /** Re-wraps a file key for another recipient public key (base64 SPKI). */
  async wrapFileKey(key: FileKeyHandle, recipientPublicKey: PublicKeySpki | string): Promise<WrappedFileKey> {
    return this.placement.run(this.placement.holderOf(key), KEY_OPERATION_SECONDS, (w) => w.api.wrapFileKey(key.id, recipientPublicKey));
  }

  /**
   * Sends file keys from the worker holding them straight to another context over `port` (the
   * service worker streaming a download; see src/features/downloads). The receiver gets one
   * FileKeysMessage ({ keys: [{ id, key }] }) and the port is closed. The keys stay in the pool
   * too: release them when the download is over.
   */
  async sendFileKeys(keys: readonly FileKeyHandle[], port: MessagePort): Promise<void> {
    const worker = await this.placement.gatherKeys(keys);
    await this.placement.run(worker, KEY_OPERATION_SECONDS, (w) => w.api.sendFileKeys(keys.map((key) => key.id), transfer(port, [port])));
  }

  /** Forgets a key in every worker holding it (logout, key errors, finished downloads). */
  async releaseKey(handle: KeyHandle<HandleKind>): Promise<void> {
    await Promise.all(this.placement.forgetKey(handle).map((holder) => holder.api.releaseKey(handle.id)));
  }

  /**
   * Forgets several keys (a finished download's, a closed link page's). Resolves once every release
   * has settled and never rejects: a worker that failed took its keys with it, and one key that
   * could not be released must not keep the others.
   */
  async releaseKeys(handles: Iterable<KeyHandle<HandleKind>>): Promise<void> {
    await Promise.allSettled([...handles].map((handle) => this.releaseKey(handle)));
  }

  // ---------------------------------------------------------------- team folders (workers/team-operations.ts)

  /**
   * A team call within its time limit: a worker whose WebCrypto call never answers does not leave
   * the page waiting (the heartbeat sees only a worker that stopped). A result that arrives after
   * the limit is released (`late`).
   */
  private withinTeamLimit<T>(work: Promise<T>, envelopes: number, files: number, what: string, late?: (value: T) => void): Promise<T> {
    const { baseMs, perEnvelopeMs, perFileMs } = this.teamLimits;
    const ms = baseMs + envelopes * perEnvelopeMs + files * perFileMs;
    return settleWithin(work, ms, () => new CryptoError('WORKER_FAILED', `${what} did not finish within ${Math.ceil(ms / 1000)} s`), late);
  }

  /**
   * Checks a team folder's whole signed chain (GET /folders/{id}/team) for the account of
   * `privateKey` against what this browser saw before, and opens its envelopes. Throws
   * TeamManifestInvalidError (code TEAM_MANIFEST_INVALID, with `reason`) or CryptoError INTEGRITY.
   * `folderId`: the folder asked for; a chain naming another is refused.
   */
  openTeam(privateKey: PrivateKeyHandle, answer: TeamAnswer, seen: SeenChain, folderId?: number): Promise<{ team: VerifiedTeam; folderKeys: FolderKeysHandle }> {
    const envelopes = answer.my_envelopes.length + answer.manifests.length;
    const work = (async () => {
      const worker = this.placement.holderOf(privateKey);
      return this.placement.run(worker, KEY_OPERATION_SECONDS * (1 + envelopes), async (w) => {
        const opened = await w.api.openTeam(privateKey.id, answer, seen, folderId);
        return { team: opened.team, folderKeys: this.placement.adoptKey<'folder'>(opened.folderKeysId, 'folder', w) };
      });
    })();
    return this.withinTeamLimit(work, envelopes, 0, 'opening the team folder', (late) => void this.releaseKey(late.folderKeys).catch(() => undefined));
  }

  /** Opens a file key sealed to epoch `epoch` of an opened team folder: the same FileKeyHandle as unwrapFileKey's. */
  unwrapFolderFileKey(folderKeys: FolderKeysHandle, epoch: number, encryptedKey: string): Promise<FileKeyHandle> {
    const work = (async () =>
      this.placement.run(this.placement.holderOf(folderKeys), KEY_OPERATION_SECONDS, async (w) =>
        this.placement.adoptKey<'file'>(await w.api.unwrapFolderFileKey(folderKeys.id, epoch, encryptedKey), 'file', w),
      ))();
    return this.withinTeamLimit(work, 1, 0, 'opening a file key of the team folder', (late) => void this.releaseKey(late).catch(() => undefined));
  }

  /** The body of POST /folders/{id}/team: epoch 1, version 1 signed by the owner, envelopes, and the folder's file keys sealed to epoch 1. */
  shareFolder(privateKey: PrivateKeyHandle, input: ShareFolderInput): Promise<ShareTeamRequest> {
    const envelopes = input.members.length + 1;
    const work = (async () =>
      this.placement.run(this.placement.holderOf(privateKey), KEY_OPERATION_SECONDS * (envelopes + input.files.length) + 0.5, (w) => w.api.shareFolder(privateKey.id, input)))();
    return this.withinTeamLimit(work, envelopes, input.files.length, 'sharing the folder');
  }

  /** The body of POST /folders/{id}/team/versions for `change` (remove: a new epoch; add: every epoch to the new member). */
  changeTeam(privateKey: PrivateKeyHandle, folderKeys: FolderKeysHandle, team: VerifiedTeam, change: TeamChange): Promise<ChangeTeamRequest> {
    const envelopes = team.members.length + (change.add?.length ?? 0) * (team.epochs.length + 1);
    const work = (async () => {
      const worker = this.placement.holderOf(folderKeys);
      await this.placement.ensureKeyOn(privateKey, worker);
      return this.placement.run(worker, KEY_OPERATION_SECONDS * envelopes + 0.5, (w) => w.api.changeTeam(privateKey.id, folderKeys.id, team, change));
    })();
    return this.withinTeamLimit(work, envelopes, 0, 'changing the team');
  }

  // ---------------------------------------------------------------- download links

  /** SECRET result ('fileId:base64key,...'): put it only in the URL fragment. */
  async formatLinkFragment(files: readonly LinkFileKeyHandle[]): Promise<LinkFragment> {
    const worker = await this.placement.gatherKeys(files.map((f) => f.key));
    return this.placement.run(worker, KEY_OPERATION_SECONDS, (w) => w.api.formatLinkFragment(files.map((f) => ({ fileId: f.fileId, keyId: f.key.id }))));
  }

  /** Keys from an opened link's fragment; MALFORMED if any pair is damaged. */
  async parseLinkFragment(fragment: string): Promise<Map<string, FileKeyHandle>> {
    return this.placement.run(this.placement.leastBusy(), KEY_OPERATION_SECONDS, async (w) => this.placement.adoptKeyMap(await w.api.parseLinkFragment(fragment), w));
  }

  /** Wraps the selected files' keys for a password-protected link (see docs/format.md). */
  async protectLinkKeys(password: string, files: readonly LinkFileKeyHandle[]): Promise<LinkPasswordProtection> {
    const worker = await this.placement.gatherKeys(files.map((f) => f.key));
    return this.placement.run(worker, ARGON2_SECONDS, (w) => w.api.protectLinkKeys(password, files.map((f) => ({ fileId: f.fileId, keyId: f.key.id }))));
  }

  /** Opens reencrypted_keys from the server; WRONG_PASSWORD for a wrong link password. */
  async openLinkKeys(password: string, reencryptedKeys: Record<string, string>): Promise<Map<string, FileKeyHandle>> {
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS, async (w) => this.placement.adoptKeyMap(await w.api.openLinkKeys(password, reencryptedKeys), w));
  }

  /** The value a recipient proves the link password with; the server stores only a hash of it. */
  deriveLinkPasswordVerifier(password: string, kdfParams: string): Promise<LinkPasswordVerifier> {
    return this.placement.run(this.placement.leastBusy(), ARGON2_SECONDS, (w) => w.api.deriveLinkPasswordVerifier(password, kdfParams));
  }
}
