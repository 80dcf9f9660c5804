// The one place that opens a file's key for this account (docs/team-folders.md, "Keys"): a file
// with no key epoch is sealed to the folder owner's account key and opens with the unlocked private
// key; a file of a team folder is sealed to one of the folder's epoch keys and opens with the
// folder's keys, which are opened (and the signed chain checked) the first time a file needs them.
// Everything downstream (downloads, ZIP, save to folder, download links) gets the same FileKeyHandle.
import type { CryptoPool, FileKeyHandle, PrivateKeyHandle } from '../../../workers/index.ts';
import { OwnerKeyOnlyError } from './teamErrors.ts';
import type { FolderKeysHandle } from './teamPool.ts';

/** What opening needs of a file record (GET /folders/{id}/files). */
export interface KeyedFile {
  /** base64: the file key, RSA-OAEP-wrapped to the owner's account key or to epoch `key_epoch`'s key. */
  encrypted_key: string;
  /** null: a personal folder's file (the owner's account key). */
  key_epoch: number | null;
}

/** Opens one file's key in the pool; the caller releases it (pool.releaseKeys) when done. */
export type FileKeyOpener = (file: KeyedFile) => Promise<FileKeyHandle>;

export type FileKeyPool = Pick<CryptoPool, 'unwrapFileKey' | 'unwrapFolderFileKey'>;

/**
 * An opener for the files of one folder. `folderKeys` is asked at most once, and only when a file
 * with an epoch comes; if it fails, every such file fails with its error (no fallback to the
 * account key: a team file was never sealed to it). `viewerIsOwner` false (a member of someone
 * else's folder): a file with no epoch is sealed to the owner's key, so it fails with
 * OwnerKeyOnlyError before any unwrap, rather than as a wrong key that would make this
 * member's own unlocked key look suspect.
 */
export function fileKeyOpener(pool: FileKeyPool, privateKey: PrivateKeyHandle, folderKeys: () => Promise<FolderKeysHandle>, viewerIsOwner: boolean): FileKeyOpener {
  let opened: Promise<FolderKeysHandle> | null = null;
  return async (file) => {
    if (file.key_epoch === null) {
      if (!viewerIsOwner) throw new OwnerKeyOnlyError();
      return pool.unwrapFileKey(privateKey, file.encrypted_key);
    }
    opened ??= folderKeys();
    return pool.unwrapFolderFileKey(await opened, file.key_epoch, file.encrypted_key);
  };
}
