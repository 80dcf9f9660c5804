// One unfinished large upload as the persisted queue keeps it (IndexedDB, uploadQueueStore.ts):
// enough to continue it from another page load with the same key, IV and format, and nothing in
// clear that opens it (the file key is wrapped under the origin's non-extractable storage key).

import type { StoredFileKey } from '../../../../crypto/index.ts';
import type { CiphertextFormat, FileIdentity, HashCheckpoint, SentSignature } from '../engine/enginePorts.ts';
import type { FileSource } from './fileSource.ts';

export const QUEUE_ENTRY_VERSION = 1;

/**
 * - `encrypting`: key and IV stored, the tus upload not created yet (no URL);
 * - `uploading`: the server holds `confirmedOffset` bytes of the ciphertext at `uploadUrl`;
 * - `sent`: every byte is on the server; only `POST .../complete` (with the hash) is missing.
 * A completed or discarded file has no entry at all.
 */
export type QueueEntryStatus = 'encrypting' | 'uploading' | 'sent';

/** Which file of which link a stored record is about (its store key is `id`). */
interface StoredFileIdentity {
  readonly version: typeof QUEUE_ENTRY_VERSION;
  /** entryIdOf(identity): the store's key. */
  readonly id: string;
  readonly linkToken: string;
  readonly relativePath: string;
  readonly name: string;
  readonly size: number;
  readonly lastModified: number;
}

export interface QueueEntry extends StoredFileIdentity {
  readonly status: QueueEntryStatus;
  readonly uploadUrl: string | null;
  /** Ciphertext bytes the server confirmed (tus Upload-Offset after the last accepted PATCH). */
  readonly confirmedOffset: number;
  readonly encryptedLength: number;
  /**
   * The format version and record size the file is encrypted with, bound with the encrypted length
   * to the wrapped key (keyContextOf). Absent in entries an earlier version of the page wrote: those
   * are never resumed (their parameters are unknown), only discarded.
   */
  readonly format?: CiphertextFormat;
  /**
   * The content signature of every ciphertext byte handed to the network so far (the GCM tags of
   * the records they reach, workers/sent-signature.ts), written before the bytes leave. A resume
   * checks the file against it before it continues. Absent: no byte has left yet.
   */
  readonly sentSignature?: SentSignature;
  /**
   * The plaintext's SHA-256 state after its first `records` records, all within `confirmedOffset`
   * (workers/hash-checkpoints.ts): a resumed file hashes only what follows. Stored in clear: it is
   * taken only at whole SHA-256 blocks, so it holds the chaining value and the length, no plaintext
   * bytes (like the file hash the server gets, it only lets one confirm a guessed prefix). Absent
   * before the first snapshot, and in entries of earlier versions.
   */
  readonly hashCheckpoint?: HashCheckpoint;
  /** The file's IV (base64): not secret, stored in clear like on the server. */
  readonly iv: string;
  /** The file key, wrapped under the storage key and bound to `keyContextOf(id, iv, format, encryptedLength)`. */
  readonly fileKey: StoredFileKey;
  readonly createdAt: number;
  /** The last time the server accepted bytes (or the entry was made): the abandon clock. */
  readonly updatedAt: number;
  /**
   * Where the file can be opened again without a new selection (File System Access handles,
   * Chromium); absent where the file came from an input or the browser has no handles.
   */
  readonly source?: FileSource;
}

/**
 * A file stored during a visit that may be interrupted: its identity and nothing else (no key, no
 * IV). Kept while the link has unfinished uploads, so that selecting the same folder again sends
 * only what is missing.
 */
export interface DeliveredMark extends StoredFileIdentity {
  readonly at: number;
}

/**
 * The key of a file across page loads. Size and lastModified are part of it on purpose: a file
 * that changed is a different entry, so it can never pick up the old key and IV (docs/format.md,
 * "Resuming and nonce reuse").
 */
export function entryIdOf(file: FileIdentity): string {
  return JSON.stringify([file.linkToken, file.relativePath, file.name, file.size, file.lastModified]);
}

/** Same place in the same folder upload, whatever its size and date: the candidates a changed file replaces. */
export function samePlace(entry: QueueEntry, file: FileIdentity): boolean {
  return entry.linkToken === file.linkToken && entry.relativePath === file.relativePath && entry.name === file.name;
}

/**
 * What the wrapped key is bound to: its entry, its IV and every other parameter that decides the
 * ciphertext (format version, record size, and so the encrypted length). A key never opens for
 * another file, IV or format, so an entry edited to claim other parameters cannot be continued.
 */
export function keyContextOf(entryId: string, iv: string, format: CiphertextFormat, encryptedLength: number): string {
  return `sealdrop-resume-v2\n${entryId}\n${iv}\nformat ${format.version} records ${format.recordSize}\nlength ${encryptedLength}`;
}
