import type { WriteStream } from 'node:fs';

/**
 * Settles once a file write stream has closed its descriptor, destroying it first if it is still
 * open; never rejects. Call it before removing the stream's file after a failed pipeline():
 * pipeline() rejects as soon as the source fails, which can be before the file has even been
 * opened, and a file removed then is created after its removal and left behind for good.
 */
export function writeStreamClosed(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  const closing = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  if (!stream.destroyed) stream.destroy();
  return closing;
}
