/** Types the pool hands to its callers (upload, download, keys and links features). */
declare const handleBrand: unique symbol;

/** What a handle names: a file key, an account private key, or an opened team folder's epoch keys. */
export type HandleKind = 'file' | 'private' | 'folder';

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
