/** Types the pool hands to its callers (upload, download, keys and links features). */
declare const handleBrand: unique symbol;

/**
 * What a handle names: a file key, an account private key, an opened team folder's epoch keys, or
 * the key pair of a device-approval request.
 */
export type HandleKind = 'file' | 'private' | 'folder' | 'request';

/**
 * An opaque reference to a key held inside the pool's workers. The key itself never reaches the
 * main thread; release it with `pool.releaseKey` when done (logout, download finished).
 */
export interface KeyHandle<Kind extends HandleKind> {
  readonly id: string;
  readonly kind: Kind;
  readonly [handleBrand]: Kind;
}

export type FileKeyHandle = KeyHandle<'file'>;
export type PrivateKeyHandle = KeyHandle<'private'>;
/** A team folder's epoch keys opened by pool.openTeam (workers/team-operations.ts). */
export type FolderKeysHandle = KeyHandle<'folder'>;

/** A new device's key pair for one approval request (pool.createApprovalRequest); release it when the request is over. */
export type ApprovalRequestHandle = KeyHandle<'request'>;

/**
 * Where the private key comes from when a single-sign-on account's key gets a new copy (a trusted
 * device, a new recovery key, an approval for another device): this device's copy with its device
 * key, the recovery copy with the recovery key as typed, an approval this device just received, the
 * login password's key data, or the key this session already unlocked by one of those paths or a
 * passkey (`session`: its handle; a key opened with a password is UNKNOWN_KEY, workers/key-store.ts).
 * Every opened key is checked against `expectedSpki`, the account's public key (base64 SPKI, as the
 * server keeps it): a copy of another key pair is WRONG_KEY.
 */
export type SsoKeySource = (
  | { readonly kind: 'device'; readonly copy: string; readonly deviceKey: CryptoKey; readonly deviceId: string }
  | { readonly kind: 'recovery'; readonly copy: string; readonly recoveryKey: string; readonly username: string }
  | { readonly kind: 'approval'; readonly requestKey: ApprovalRequestHandle; readonly requestId: string; readonly approverSpki: string; readonly copy: string }
  | { readonly kind: 'password'; readonly data: { readonly encryptedPrivateKey: string; readonly kdfSalt: string }; readonly password: string }
  | { readonly kind: 'session'; readonly privateKey: PrivateKeyHandle }
) & { readonly expectedSpki: string };

/**
 * Where the private key comes from when a new passkey gets its copy: the stored key data and the
 * password the person just re-entered; the copy of the passkey they just confirmed with and that
 * passkey's PRF output (transferred, zeroed in the worker); or, for an account without a password,
 * the key this session unlocked (`session`, as in SsoKeySource; checked against `expectedSpki`,
 * WRONG_KEY for another key pair), so no password is needed.
 */
export type PasskeyKeySource =
  | { readonly kind: 'password'; readonly data: { readonly encryptedPrivateKey: string; readonly kdfSalt: string }; readonly password: string }
  | { readonly kind: 'passkey'; readonly encryptedPrivateKey: string; readonly prfOutput: ArrayBuffer; readonly credentialId: string }
  | { readonly kind: 'session'; readonly privateKey: PrivateKeyHandle; readonly expectedSpki: string };

export interface LinkFileKeyHandle {
  readonly fileId: string;
  readonly key: FileKeyHandle;
}

/**
 * What the pool's sendFileKeys posts to another context (the service worker of a download): file
 * keys by handle id. CryptoKeys survive structured cloning, non-extractable ones stay so.
 */
export interface FileKeysMessage {
  readonly keys: ReadonlyArray<{ readonly id: string; readonly key: CryptoKey }>;
}
