/**
 * Plaintext into one file on disk through the File System Access API's writable
 * (`FileSystemFileHandle.createWritable`, which works the same for a handle the user picked and
 * for one from the origin-private file system). The writable writes to a temporary copy that
 * replaces the file only when it is closed: a failed or cancelled file is aborted, so the browser
 * discards what was written and no truncated file ever looks complete.
 *
 * Decrypted records (256 KiB) are gathered into larger writes, because each write() is a round trip
 * to the browser process: fewer, larger writes are faster, at the cost of up to ~3 blocks of
 * plaintext in memory (the sizes compared: docs/download.md, "Measurements behind the code"). The
 * blocks come from a pool (blockPool.ts) and go back to it once their write has settled.
 */
import { DownloadError } from '../downloadErrors.ts';
import type { BlockPool } from './blockPool.ts';
import { domErrorName } from './domErrorName.ts';

export interface DiskWriteOptions {
  /** The file's name or path, for messages. */
  readonly name: string;
  readonly signal: AbortSignal;
  /** Plaintext bytes handed to the writable, as they go. */
  onBytes(count: number): void;
  /** Where the gathered blocks come from; one pool serves every file of a download in turn. */
  readonly blocks: BlockPool;
}

export const DEFAULT_WRITE_CHUNK = 16 * 1024 * 1024;
/** Blocks queued for the writable while it is busy, so decryption carries on meanwhile. */
const QUEUED_BLOCKS = 2;

/** A failure of the file system, in the user's words. DownloadErrors (the source's) pass through. */
export function writeFailure(name: string, error: unknown, signal?: AbortSignal): DownloadError {
  if (error instanceof DownloadError) return error;
  if (signal?.aborted) return new DownloadError('ABORTED');
  switch (domErrorName(error)) {
    case 'QuotaExceededError':
      return new DownloadError('WRITE_FAILED', { case: 'disk-full', file: name });
    case 'NotAllowedError':
    case 'SecurityError':
      return new DownloadError('WRITE_FAILED', { case: 'not-allowed', file: name });
    default: {
      const detail = error instanceof Error && error.message ? error.message : 'the file system refused the write';
      return new DownloadError('WRITE_FAILED', { file: name, detail });
    }
  }
}

/**
 * Gathers pieces into the pool's blocks (the last one shorter); counts bytes as they leave. Whoever
 * reads the blocks gives each back to the pool once done with it (writingThrough below).
 */
export function blockGatherer(blocks: BlockPool, onBytes: (count: number) => void): TransformStream<Uint8Array, Uint8Array> {
  const size = blocks.blockBytes;
  let block: Uint8Array | null = null;
  let filled = 0;
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    controller.enqueue(bytes);
    onBytes(bytes.byteLength);
  };
  return new TransformStream<Uint8Array, Uint8Array>(
    {
      transform(piece, controller) {
        // A piece as large as a block goes on as it is (no copy), after what was gathered before it.
        if (piece.byteLength >= size) {
          if (block) emit(controller, block.subarray(0, filled));
          block = null;
          filled = 0;
          emit(controller, piece);
          return;
        }
        let offset = 0;
        while (offset < piece.byteLength) {
          block ??= blocks.take();
          const take = Math.min(size - filled, piece.byteLength - offset);
          block.set(piece.subarray(offset, offset + take), filled);
          filled += take;
          offset += take;
          if (filled === size) {
            emit(controller, block);
            block = null;
            filled = 0;
          }
        }
      },
      flush(controller) {
        if (block && filled > 0) emit(controller, block.subarray(0, filled));
        block = null;
      },
    },
    undefined,
    { highWaterMark: QUEUED_BLOCKS },
  );
}

/** The writer as a stream that gives each block back to the pool once the writable has taken it. */
function writingThrough(writer: WritableStreamDefaultWriter<Uint8Array>, blocks: BlockPool): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    async write(block) {
      await writer.write(block);
      blocks.giveBack(block);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
}

/**
 * Writes the stream into the file and commits it (close). Rejects with a DownloadError: the
 * source's own (INTEGRITY, HTTP, ...), ABORTED, or WRITE_FAILED; the writable is then aborted.
 */
export async function writeToDisk(plaintext: ReadableStream<Uint8Array>, file: FileSystemFileHandle, options: DiskWriteOptions): Promise<void> {
  let writable: FileSystemWritableFileStream;
  try {
    writable = await file.createWritable({ keepExistingData: false });
  } catch (error) {
    await plaintext.cancel(error).catch(() => undefined);
    throw writeFailure(options.name, error, options.signal);
  }
  const writer: WritableStreamDefaultWriter<Uint8Array> = writable.getWriter();
  try {
    // pipeTo aborts the writable when the source fails or the signal fires, and cancels the source
    // when the writable fails; it closes (commits) the writable only after the last byte.
    await plaintext.pipeThrough(blockGatherer(options.blocks, options.onBytes)).pipeTo(writingThrough(writer, options.blocks), { signal: options.signal });
  } catch (error) {
    await writer.abort(error).catch(() => undefined);
    throw writeFailure(options.name, error, options.signal);
  }
}
