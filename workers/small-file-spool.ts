/**
 * Small files through the upload spool (the page's side): the worker that encrypts a group writes
 * each file's whole multipart part (contract/upload-multipart.ts: head, ciphertext, fields) into one
 * file of the spool (encryptWholeFilesToSpool), so a batch's body is a few slices of spool files,
 * which the browser reads from disk when the batch is sent (multipartBatch.ts).
 *
 * Why (docs/upload.md, "Small files through the spool"): with the ciphertexts sent back to the page,
 * a folder of small files was held in memory up to three more times until the collectors ran: the
 * page's copy of each ciphertext (made by Blink, so freeing it from script does not help), the
 * batch's body, and the body XMLHttpRequest keeps until it is collected. A slice of a spool file
 * holds none of them.
 *
 * The group's file is removed once every file of it has been released (its batch answered or given
 * up); a page that goes away leaves it to the next page's clean-up of abandoned spools.
 */
import { SpoolStalledError, type CiphertextSpool } from './ciphertext-spool.ts';
import { MAX_SPOOL_STALLS, SPOOL_FAILED_MARK, SPOOL_STALLED_MARK } from './encryption-session.ts';
import type { WrittenFilePart } from '../contract/upload-multipart.ts';
import type { SpooledGroup, WholeFileFailed, WholeFileResult } from './whole-file-encryption.ts';
import { fromWireError } from './wire-errors.ts';

/** Where a small file's ciphertext is: in memory, or within its whole multipart part in a spool file. */
type SmallFileBody = { readonly ciphertext: Uint8Array; readonly written?: undefined } | { readonly written: WrittenFilePart; readonly ciphertext?: undefined };

/** One small file encrypted whole (CryptoPool.encryptSmallFiles), or why it could not be. */
export type SmallFileEncryption =
  | ({
      readonly ok: true;
      readonly iv: string;
      readonly wrappedKey: string;
      readonly sha256: string;
      readonly cipherSize: number;
      /** Called once the ciphertext is no longer needed (sent, or given up): its spool file can go. */
      readonly release: () => void;
    } & SmallFileBody)
  | { readonly ok: false; readonly stage: WholeFileFailed['stage']; readonly error: Error };

const nothingToRelease = () => undefined;

/** Marked in the page's performance timeline for each group sent from the spool (detail: { files }). */
export const SMALL_FILES_SPOOLED_MARK = 'sealdrop:small-files-spooled';

function failed(result: WholeFileFailed): SmallFileEncryption {
  return { ok: false, stage: result.stage, error: fromWireError(result.error) };
}

/** A group's results with their ciphertexts in memory (no spool, or the spool refused them). */
export function smallFilesInMemory(results: readonly WholeFileResult[]): SmallFileEncryption[] {
  return results.map((result) =>
    result.ok
      ? { ok: true, iv: result.iv, wrappedKey: result.wrappedKey, sha256: result.sha256, ciphertext: result.ciphertext, cipherSize: result.ciphertext.byteLength, release: nothingToRelease }
      : failed(result),
  );
}

/** Removes a group's spool file once each of its `count` files released its slice (each once). */
function sharedRelease(spool: CiphertextSpool, name: string, count: number): () => () => void {
  let left = count;
  return () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--left === 0) void spool.remove(name);
    };
  };
}

/**
 * The pool's use of the spool for small files. Like a large file's chunks (EncryptionSession.readBody),
 * a group the spool cannot take is sent from memory; after a full disk or quota, or MAX_SPOOL_STALLS
 * stalled calls in a row, small files stop using the spool for the rest of the page's life.
 */
export class SmallFileSpool {
  private groups = 0;
  private stalls = 0;
  private disabled = false;

  get usable(): boolean {
    return !this.disabled;
  }

  /** A name for the next group's file, unique within the page's spool directory. */
  nextName(): string {
    return `small-${++this.groups}`;
  }

  /**
   * The results of a group the worker was asked to write to the spool file `name`, or null when
   * the file was written but cannot be opened (the caller then encrypts the group again in memory).
   */
  async accept(spool: CiphertextSpool, name: string, group: SpooledGroup, boundary: string): Promise<SmallFileEncryption[] | null> {
    if (!group.spooled) {
      this.refused(group.reason, group.call);
      void spool.remove(name);
      return smallFilesInMemory(group.results);
    }
    const written = group.results.filter((result) => result.ok).length;
    // Every file failed: the worker wrote no file.
    if (written === 0) return group.results.flatMap((result) => (result.ok ? [] : [failed(result)]));
    let file: File;
    try {
      file = await spool.file(name);
    } catch (error) {
      this.refused(error instanceof SpoolStalledError ? 'stalled' : 'failed', error instanceof SpoolStalledError ? error.call : undefined);
      void spool.remove(name);
      return null;
    }
    this.stalls = 0;
    performance.mark(SMALL_FILES_SPOOLED_MARK, { detail: { files: written } });
    const releaser = sharedRelease(spool, name, written);
    let offset = 0;
    return group.results.map((result) => {
      if (!result.ok) return failed(result);
      const written = { source: file, start: offset, end: offset + result.partSize, boundary };
      offset = written.end;
      return { ok: true, iv: result.iv, wrappedKey: result.wrappedKey, sha256: result.sha256, written, cipherSize: result.cipherSize, release: releaser() };
    });
  }

  private refused(reason: 'stalled' | 'failed', call?: string): void {
    // Visible in the page's performance timeline, as a large file's chunks are (bench:upload counts them).
    performance.mark(reason === 'stalled' ? SPOOL_STALLED_MARK : SPOOL_FAILED_MARK, { detail: { call } });
    if (reason === 'failed' || ++this.stalls >= MAX_SPOOL_STALLS) this.disabled = true;
  }
}
