/**
 * Small files encrypted whole, a group of them per worker message (the upload's batch lane): per
 * file a fresh key and IV, the key wrapped for the recipient, the whole ciphertext in one buffer
 * (crypto's encryptBytes: the same bytes an EncryptionJob produces), and the plaintext's SHA-256.
 *
 * Why a group per message: opening, reading, hashing, closing and releasing each small file as its
 * own job took five round trips per file, and for a folder of thousands of small files the page's
 * thread handling those messages was the upload's bottleneck (docs/upload.md, "Measurements behind
 * the choices"). The file key never leaves this module (it is not kept in the KeyStore): a small
 * file is sent whole and never resumed, so nothing needs the key after the wrap.
 *
 * Each file succeeds or fails on its own; a failure comes back as a result, so the other files of
 * the group go on.
 */
import {
  type CipherBytes,
  type FileIvBase64,
  type Sha256Hex,
  type WrappedFileKey,
  CryptoError,
  encodeFileIv,
  generateFileIv,
  generateFileKey,
  wrapFileKey,
  encryptBytes,
  ONE_SHOT_DIGEST_MAX_BYTES,
  sha256OneShot,
  utf8,
} from '../crypto/index.ts';
import { fileHead, fileTail, type MultipartFraming } from '../contract/upload-multipart.ts';
import { toWireError, type WireError } from './wire-errors.ts';
import type { SpoolRefusal } from './ciphertext-spool.ts';

/** Files up to this size may be encrypted whole (the whole plaintext is held at once). */
export const WHOLE_FILE_MAX_BYTES = ONE_SHOT_DIGEST_MAX_BYTES;

export interface WholeFileEncrypted {
  readonly ok: true;
  readonly iv: FileIvBase64;
  readonly wrappedKey: WrappedFileKey;
  readonly ciphertext: CipherBytes;
  readonly sha256: Sha256Hex;
}

export interface WholeFileFailed {
  readonly ok: false;
  /** Which step failed: reading or encrypting the file, or hashing it. */
  readonly stage: 'encrypt' | 'hash';
  readonly error: WireError;
}

export type WholeFileResult = WholeFileEncrypted | WholeFileFailed;

/**
 * A file of a group written to the upload spool: its whole multipart part (contract/upload-multipart.ts)
 * is in the group's spool file, right after the previous successful file's, not here.
 */
export interface WholeFileSpooled {
  readonly ok: true;
  readonly iv: FileIvBase64;
  readonly wrappedKey: WrappedFileKey;
  readonly cipherSize: number;
  /** Bytes of its part in the spool file: head, ciphertext, tail. */
  readonly partSize: number;
  readonly sha256: Sha256Hex;
}

/**
 * A group encrypted to the spool (encryptWholeFilesToSpool): the ciphertexts of the files that
 * succeeded are in the spool file one after another, in the group's order; or, where the spool
 * could not take them, the results with their ciphertexts and why.
 */
export type SpooledGroup =
  | { readonly spooled: true; readonly results: ReadonlyArray<WholeFileSpooled | WholeFileFailed> }
  | ({ readonly spooled: false; readonly results: readonly WholeFileResult[] } & SpoolRefusal);

/**
 * The pieces of a spooled group's file (each successful file's head, ciphertext and tail, in the
 * group's order) and each result as the page gets it, without its ciphertext.
 */
export function spooledParts(sources: readonly Blob[], results: readonly WholeFileResult[], framing: MultipartFraming): { pieces: Uint8Array[]; results: Array<WholeFileSpooled | WholeFileFailed> } {
  const pieces: Uint8Array[] = [];
  const spooled = results.map((result, index): WholeFileSpooled | WholeFileFailed => {
    if (!result.ok) return result;
    const names = framing.files[index];
    if (!names) throw new CryptoError('MALFORMED', `no name was given for file ${index} of the group`);
    const fields = { ...names, plainSize: sources[index]!.size, encryptedKey: result.wrappedKey, iv: result.iv, sha256: result.sha256 };
    const head = utf8(fileHead(framing.boundary, fields));
    const tail = utf8(fileTail(framing.boundary, fields));
    pieces.push(head, result.ciphertext, tail);
    return { ok: true, iv: result.iv, wrappedKey: result.wrappedKey, cipherSize: result.ciphertext.byteLength, partSize: head.byteLength + result.ciphertext.byteLength + tail.byteLength, sha256: result.sha256 };
  });
  return { pieces, results: spooled };
}

async function readWhole(source: Blob): Promise<Uint8Array<ArrayBuffer>> {
  if (source.size > WHOLE_FILE_MAX_BYTES) {
    throw new CryptoError('MALFORMED', `a file of ${source.size} bytes is too large to encrypt whole`);
  }
  const plaintext = new Uint8Array(await source.arrayBuffer());
  if (plaintext.byteLength !== source.size) throw new CryptoError('SOURCE_CHANGED', 'the file changed while being read');
  return plaintext;
}

/** One file: read once, encrypted and hashed from the same bytes. */
export async function encryptWholeFile(source: Blob, recipient: CryptoKey, recordSize: number): Promise<WholeFileResult> {
  let plaintext: Uint8Array<ArrayBuffer>;
  let sealed: { iv: FileIvBase64; wrappedKey: WrappedFileKey; ciphertext: Promise<CipherBytes> };
  try {
    plaintext = await readWhole(source);
    const key = await generateFileKey();
    const iv = generateFileIv();
    const wrappedKey = await wrapFileKey(key, recipient);
    // Hashing may read the same bytes while they are encrypted (see encryptBytes).
    const ciphertext = encryptBytes(key, iv, plaintext, recordSize);
    ciphertext.catch(() => undefined);
    sealed = { iv: encodeFileIv(iv), wrappedKey, ciphertext };
  } catch (error) {
    return { ok: false, stage: 'encrypt', error: toWireError(error) };
  }
  let sha256: Sha256Hex;
  try {
    sha256 = await sha256OneShot(plaintext);
  } catch (error) {
    return { ok: false, stage: 'hash', error: toWireError(error) };
  }
  try {
    return { ok: true, iv: sealed.iv, wrappedKey: sealed.wrappedKey, ciphertext: await sealed.ciphertext, sha256 };
  } catch (error) {
    return { ok: false, stage: 'encrypt', error: toWireError(error) };
  }
}

/** Files read at once within a group: a read (an IPC to the browser) overlaps another file's crypto. */
const FILES_AT_ONCE = 4;

/** A group of files, results in the same order. */
export async function encryptWholeFiles(sources: readonly Blob[], recipient: CryptoKey, recordSize: number): Promise<WholeFileResult[]> {
  const results: WholeFileResult[] = new Array(sources.length);
  let next = 0;
  const lane = async () => {
    while (next < sources.length) {
      const index = next++;
      results[index] = await encryptWholeFile(sources[index]!, recipient, recordSize);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, sources.length) }, lane));
  return results;
}
