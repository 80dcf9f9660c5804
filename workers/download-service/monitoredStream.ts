/**
 * The stream the download manager reads, wrapped so the service worker knows how far it got and
 * how it ended: bytes as they are handed over, then exactly one of done / failed (an error of the
 * source, a cancel from the browser's download UI, or an abort from the page). A small read-ahead
 * lets decryption continue while the browser writes to disk.
 */
import { DownloadError } from './downloadErrors.ts';

export interface StreamHooks {
  onBytes(bytes: number): void;
  onDone(bytes: number): void;
  onFailed(error: unknown): void;
}

export interface MonitoredStream {
  readonly stream: ReadableStream<Uint8Array>;
  /** Errors the stream (the browser marks the download failed) and cancels the source. */
  abort(error: DownloadError): void;
  /**
   * True while the read-ahead is full and the browser takes nothing (the user paused the download,
   * or the disk is that slow): no byte moves, but it is the reader that waits, not this worker.
   * False while the browser waits for bytes (then a stop is the source's, or this worker's).
   */
  readerIsBehind(): boolean;
}

const READ_AHEAD_BYTES = 1024 * 1024;

export function monitorStream(source: ReadableStream<Uint8Array>, hooks: StreamHooks): MonitoredStream {
  const reader = source.getReader();
  let bytes = 0;
  let settled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    return true;
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      async pull(c) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          if (settle()) {
            hooks.onFailed(error);
            c.error(error);
          }
          return;
        }
        if (settled) return; // aborted while reading
        if (result.done) {
          settle();
          hooks.onDone(bytes);
          c.close();
          return;
        }
        bytes += result.value.byteLength;
        c.enqueue(result.value);
        hooks.onBytes(bytes);
      },
      async cancel(reason) {
        // The user cancelled in the browser's download UI (or the tab went away).
        if (settle()) hooks.onFailed(new DownloadError('ABORTED'));
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
  );

  return {
    stream,
    abort(error) {
      if (!settle()) return;
      hooks.onFailed(error);
      controller.error(error);
      void reader.cancel(error).catch(() => undefined);
    },
    readerIsBehind: () => !settled && controller.desiredSize !== null && controller.desiredSize <= 0,
  };
}
