// Recovers one file of an export: unwraps its key, streams its blob through the record decryptor
// into a temporary file in the output directory while hashing the plaintext, and renames the
// temporary file into place only after the final record's tag and the SHA-256 both checked out.
// On any failure the temporary file is deleted, so a bad file leaves nothing behind (not even its
// directories, which are created only just before the rename).
import { type KeyObject, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { cipherLength, DecryptRecords, OfflineCryptoError, strictBase64, unwrapFileKey } from '../crypto/index.ts';
import { errnoCode, FileRecoveryError } from './errors.ts';
import type { ExportReader } from './export-reader.ts';
import type { ExportedFile } from './manifest.ts';
import { ensureDirectories, pathExists, targetPath } from './output-path.ts';
import { CipherMeter, PlainCheck } from './stream-meters.ts';

export interface RecoverFileOptions {
  outputDir: string;
  /** Replace a file that already exists at the target path. */
  force: boolean;
  signal?: AbortSignal;
  onProgress?: (plainBytes: number) => void;
}

const MIN_RECORD_BYTES = 16;
/**
 * Writes queue up to this many bytes, so the disk writes (on libuv's thread pool) overlap with
 * decrypting and hashing on the main thread; at the default 16 KiB every 256 KiB record waited for
 * its own write. Memory stays bounded by this plus a few records.
 */
const WRITE_QUEUE_BYTES = 8 * 1024 * 1024;
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

function refuseExisting(): FileRecoveryError {
  return new FileRecoveryError('OUTPUT_EXISTS', 'already exists in the output directory (not replaced; --force replaces it)');
}

function outputFailed(error: unknown): FileRecoveryError {
  return new FileRecoveryError('OUTPUT_FAILED', `cannot write the output file (${errnoCode(error) ?? 'error'})`, { cause: error });
}

/** A failed authentication of a blob shorter than the manifest's size needs is reported as truncated. */
function truncation(file: ExportedFile, blobBytes: number, meter: CipherMeter): FileRecoveryError | undefined {
  const recordBytes = meter.recordBytes;
  if (recordBytes === undefined || recordBytes < MIN_RECORD_BYTES || recordBytes > MAX_RECORD_BYTES) return undefined;
  const expected = cipherLength(file.size, recordBytes);
  if (blobBytes >= expected) return undefined;
  return new FileRecoveryError('BLOB_TRUNCATED', `${file.blob} is truncated: ${blobBytes} of ${expected} bytes`);
}

/** Writes the file to its target path, or throws FileRecoveryError / OfflineCryptoError (or AbortError). */
export async function recoverFile(privateKey: KeyObject, file: ExportedFile, reader: ExportReader, options: RecoverFileOptions): Promise<void> {
  const target = targetPath(options.outputDir, file.directories, file.name);
  if (!options.force && (await pathExists(target))) throw refuseExisting();

  const fileKey = unwrapFileKey(privateKey, file.encryptedKey);
  try {
    await decryptToTarget(new DecryptRecords(fileKey, strictBase64(file.iv, 'iv')), file, target, reader, options);
  } finally {
    fileKey.fill(0);
  }
}

async function decryptToTarget(
  decrypt: DecryptRecords,
  file: ExportedFile,
  target: string,
  reader: ExportReader,
  options: RecoverFileOptions,
): Promise<void> {
  const blob = await reader.openBlob(file.blob);
  const temp = path.join(options.outputDir, `.sealdrop-recover-${randomBytes(8).toString('hex')}.part`);
  const meter = new CipherMeter();
  const check = new PlainCheck(file.size, options.onProgress);
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
      if (error instanceof OfflineCryptoError && error.code === 'INTEGRITY') throw truncation(file, blob.bytes, meter) ?? error;
      if (error instanceof OfflineCryptoError || error instanceof FileRecoveryError) throw error;
      if (error === sourceError) throw new FileRecoveryError('BLOB_UNREADABLE', `${file.blob} could not be read to the end`, { cause: error });
      if (error === sinkError) throw outputFailed(error);
      throw error;
    }
    if (check.bytes !== file.size) {
      throw new FileRecoveryError('SIZE_MISMATCH', `decrypts to ${check.bytes} bytes, the manifest says ${file.size}`);
    }
    if (check.digest() !== file.sha256) {
      throw new FileRecoveryError('HASH_MISMATCH', 'the SHA-256 of the decrypted file differs from the manifest');
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
    if (!renamed) await rm(temp, { force: true });
  }
}
