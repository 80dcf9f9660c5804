/** Types the pool hands to its callers (upload, download, keys and links features). */
declare const handleBrand: unique symbol;

/**
 * An opaque reference to a key held inside the pool's workers. The key itself never reaches the
 * main thread; release it with `pool.releaseKey` when done (logout, download finished).
 */
export interface KeyHandle<Kind extends 'file' | 'private'> {
  readonly id: string;
  readonly kind: Kind;
  readonly [handleBrand]: Kind;
}

export type FileKeyHandle = KeyHandle<'file'>;
export type PrivateKeyHandle = KeyHandle<'private'>;

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
