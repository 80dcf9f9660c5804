/** One plan entry as a plaintext stream: fetch (with resume), check, decrypt. */
import { DownloadError } from './downloadErrors.ts';
import type { PlanEntry } from './protocol.ts';
import { openCiphertext } from './ciphertextSource.ts';
import { createDecryptingStream } from './decryptingStream.ts';

export interface DecryptedFileOptions {
  readonly keys: ReadonlyMap<string, CryptoKey>;
  readonly signal: AbortSignal;
  readonly fetch?: typeof fetch;
}

export async function openDecryptedFile(entry: PlanEntry, options: DecryptedFileOptions): Promise<ReadableStream<Uint8Array>> {
  const key = options.keys.get(entry.keyId);
  if (!key) throw new DownloadError('KEY_UNAVAILABLE', { file: entry.name });
  const ciphertext = await openCiphertext({
    url: entry.url,
    name: entry.name,
    iv: entry.iv,
    requiredHeaders: entry.requiredHeaders,
    signal: options.signal,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  try {
    return createDecryptingStream(ciphertext, { key, iv: entry.iv, plainSize: entry.plainSize });
  } catch (error) {
    await ciphertext.cancel(error).catch(() => undefined);
    throw error;
  }
}

/**
 * Reads the first piece of plaintext before handing the stream on, so that a file whose first
 * record does not authenticate (or that cannot be fetched at all) fails here, before a ZIP has
 * written anything of it.
 */
export async function primed(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  let first: ReadableStreamReadResult<Uint8Array> | null;
  try {
    first = await reader.read();
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (first) {
          const pending = first;
          first = null;
          if (pending.done) controller.close();
          else controller.enqueue(pending.value);
          return;
        }
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
