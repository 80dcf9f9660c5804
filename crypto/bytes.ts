/**
 * Byte helpers shared by the format and key modules. `Bytes` is a Uint8Array over a plain
 * ArrayBuffer (not shared memory), which is what WebCrypto and postMessage transfer accept.
 */
export type Bytes = Uint8Array<ArrayBuffer>;

export function concatBytes(parts: readonly Uint8Array[]): Bytes {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

export function randomBytes(length: number): Bytes {
  const out = new Uint8Array(length);
  crypto.getRandomValues(out);
  return out;
}

const utf8Encoder = new TextEncoder();

export function utf8(text: string): Bytes {
  return utf8Encoder.encode(text) as Bytes;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A copy that owns its own exactly-sized ArrayBuffer (so it can be transferred on its own). */
export function ownedCopy(view: Uint8Array): Bytes {
  return new Uint8Array(view) as Bytes;
}

/**
 * Frees a buffer's memory now instead of whenever the garbage collector gets to it, by detaching
 * it (ArrayBuffer.prototype.transfer to length 0): V8 collects dead ArrayBuffers only after tens of
 * MiB of them have piled up in an isolate. Only for a buffer nothing reads again: every view of it
 * reads as empty afterwards. Where `transfer` is missing (Node 20) the buffer is left to the
 * collector; only memory depends on it.
 *
 * Only for a buffer script made (new Uint8Array, concatBytes): one that Blink made (Blob.arrayBuffer(),
 * a WebCrypto result, one received by postMessage) stays allocated after script detaches it, and
 * no longer counts towards what makes the collector run, until its wrapper is collected (300 such
 * buffers of 1 MiB: +303 MiB detached against +13 MiB left alone; docs/operations.md).
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  const transfer = (buffer as { transfer?: (length: number) => ArrayBuffer }).transfer;
  if (buffer instanceof ArrayBuffer && typeof transfer === 'function' && buffer.byteLength > 0) transfer.call(buffer, 0);
}
