/**
 * Plaintext into one file on disk through the File System Access API's writable
 * (`FileSystemFileHandle.createWritable`, which works the same for a handle the user picked and
 * for one from the origin-private file system). The writable writes to a temporary copy that
 * replaces the file only when it is closed: a failed or cancelled file is aborted, so the browser
 * discards what was written and no truncated file ever looks complete.
 *
 * Decrypted records (256 KiB) are gathered into larger writes, because each write() is a round trip
 * to the browser process: fewer, larger writes are faster, at the cost of up to ~3 blocks of
 * plaintext in memory (the sizes compared: docs/download.md, "Measurements behind the code").
 */
import { DownloadError } from '../downloadErrors.ts';
import { domErrorName } from './domErrorName.ts';

export interface DiskWriteOptions {
  /** The file's name or path, for messages. */
  readonly name: string;
  readonly signal: AbortSignal;
  /** Plaintext bytes handed to the writable, as they go. */
  onBytes(count: number): void;
  readonly writeChunkBytes?: number;
}

const DEFAULT_WRITE_CHUNK = 16 * 1024 * 1024;
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

/** Gathers pieces into blocks of `size` bytes (the last one shorter); counts bytes as they leave. */
export function blockGatherer(size: number, onBytes: (count: number) => void): TransformStream<Uint8Array, Uint8Array> {
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
          block ??= new Uint8Array(size);
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
  try {
    // pipeTo aborts the writable when the source fails or the signal fires, and cancels the source
    // when the writable fails; it closes (commits) the writable only after the last byte.
    await plaintext.pipeThrough(blockGatherer(options.writeChunkBytes ?? DEFAULT_WRITE_CHUNK, options.onBytes)).pipeTo(writable, { signal: options.signal });
  } catch (error) {
    await writable.abort(error).catch(() => undefined);
    throw writeFailure(options.name, error, options.signal);
  }
}
