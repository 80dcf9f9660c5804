// One encrypted file to one file on disk, with every check the offline recover command makes
// (docs/operations.md "Disaster recovery"): the blob streams through the record decryptor (each
// record's tag, the order, the final flag) into a temporary file in the output directory while
// the plaintext is counted and hashed; only when the last record authenticated, the size is the
// promised one and (when known) the SHA-256 matches is it renamed into place. On any failure the
// temporary file is deleted, so a bad file leaves nothing behind (not even its directories, which
// are created only just before the rename). `npm run recover` (recover-file.ts) and
// `npm run fetch` (cli/fetch) both write files this way.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cipherLength, DecryptRecords, OfflineCryptoError } from '../crypto/index.ts';
import { writeStreamClosed } from '../storage/write-stream-closed.ts';
import { errnoCode, FileRecoveryError } from './errors.ts';
import { ensureDirectories, pathExists, targetPath } from './output-path.ts';
import { CipherMeter, PlainCheck } from './stream-meters.ts';

export interface DecryptOptions {
  outputDir: string;
  /** Replace a file that already exists at the target path. */
  force: boolean;
  signal?: AbortSignal;
  onProgress?: (plainBytes: number) => void;
}

/** What the file should be, from whoever described it (an export's manifest, a link's status). */
export interface ExpectedFile {
  /** Names the encrypted source in messages, e.g. "files/17.sdrp" or "file 17 of the link". */
  source: string;
  /** Who promised the size and hash, for messages: "the manifest", "the link". */
  describedBy: string;
  directories: string[];
  name: string;
  /** Plaintext bytes. */
  size: number;
  /** Lower-case hex SHA-256 of the plaintext, when the description has one. */
  sha256: string | null;
}

export interface EncryptedBlob {
  stream: Readable;
  /** Its length, when known before reading (to tell a truncated blob from an altered one). */
  bytes: number | null;
}

const MIN_RECORD_BYTES = 16;
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/**
 * Writes queue up to this many bytes, so the disk writes (on libuv's thread pool) overlap with
 * decrypting and hashing on the main thread; at the default 16 KiB every 256 KiB record waited for
 * its own write. Memory stays bounded by this plus a few records.
 */
const WRITE_QUEUE_BYTES = 8 * 1024 * 1024;

export function refuseExisting(): FileRecoveryError {
  return new FileRecoveryError('OUTPUT_EXISTS', 'already exists in the output directory (not replaced; --force replaces it)');
}

function outputFailed(error: unknown): FileRecoveryError {
  return new FileRecoveryError('OUTPUT_FAILED', `cannot write the output file (${errnoCode(error) ?? 'error'})`, { cause: error });
}

/** A failed authentication of a blob shorter than the described size needs is reported as truncated. */
function truncation(file: ExpectedFile, blobBytes: number, meter: CipherMeter): FileRecoveryError | undefined {
  const recordBytes = meter.recordBytes;
  if (recordBytes === undefined || recordBytes < MIN_RECORD_BYTES || recordBytes > MAX_RECORD_BYTES) return undefined;
  const expected = cipherLength(file.size, recordBytes);
  if (blobBytes >= expected) return undefined;
  return new FileRecoveryError('BLOB_TRUNCATED', `${file.source} is truncated: ${blobBytes} of ${expected} bytes`);
}

/** The target path, refused when something is there already (unless `force`). */
export async function checkedTarget(file: ExpectedFile, options: DecryptOptions): Promise<string> {
  const target = targetPath(options.outputDir, file.directories, file.name);
  if (!options.force && (await pathExists(target))) throw refuseExisting();
  return target;
}

/**
 * Decrypts `blob` with the file key and IV into the file's place under the output directory, or
 * throws FileRecoveryError / OfflineCryptoError (or the signal's reason).
 */
export async function decryptToDisk(fileKey: Buffer, iv: Buffer, file: ExpectedFile, openBlob: () => Promise<EncryptedBlob>, options: DecryptOptions): Promise<void> {
  const target = await checkedTarget(file, options);
  const decrypt = new DecryptRecords(fileKey, iv);
  const blob = await openBlob();
  const temp = path.join(options.outputDir, `.sealdrop-recover-${randomBytes(8).toString('hex')}.part`);
  const meter = new CipherMeter();
  const check = new PlainCheck(file.size, file.describedBy, options.onProgress);
  const sink = createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true, highWaterMark: WRITE_QUEUE_BYTES });
  let sourceError: unknown;
  let sinkError: unknown;
  blob.stream.once('error', (error) => (sourceError ??= error));
  sink.once('error', (error) => (sinkError ??= error));

  let renamed = false;
  try {
    try {
      await pipeline(blob.stream, meter, decrypt, check, sink, options.signal ? { signal: options.signal } : {});
    } catch (error) {
      if (error instanceof OfflineCryptoError && error.code === 'INTEGRITY') throw truncation(file, blob.bytes ?? meter.bytes, meter) ?? error;
      if (error instanceof OfflineCryptoError || error instanceof FileRecoveryError) throw error;
      if (error === sourceError) throw new FileRecoveryError('BLOB_UNREADABLE', `${file.source} could not be read to the end`, { cause: error });
      if (error === sinkError) throw outputFailed(error);
      throw error;
    }
    if (check.bytes !== file.size) {
      throw new FileRecoveryError('SIZE_MISMATCH', `decrypts to ${check.bytes} bytes, ${file.describedBy} says ${file.size}`);
    }
    if (file.sha256 !== null && check.digest() !== file.sha256) {
      throw new FileRecoveryError('HASH_MISMATCH', `the SHA-256 of the decrypted file differs from ${file.describedBy}`);
    }
    try {
      await ensureDirectories(options.outputDir, file.directories);
      if (!options.force && (await pathExists(target))) throw refuseExisting();
      await rename(temp, target);
      renamed = true;
    } catch (error) {
      throw error instanceof FileRecoveryError ? error : outputFailed(error);
    }
  } finally {
    if (!renamed) {
      // Closed before its file is removed (write-stream-closed.ts says why).
      await writeStreamClosed(sink);
      await rm(temp, { force: true });
    }
  }
}
