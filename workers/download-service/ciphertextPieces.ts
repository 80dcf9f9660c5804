/**
 * Ciphertext read in the pieces its reader asks for. From a byte stream (a fetch body is one) the
 * bytes go from the network straight into a buffer of exactly the size asked, so the record
 * decryptor receives whole records and decrypts them where they landed, and two such buffers take
 * turns, instead of every piece of the body being fresh memory and then joined into a record by a
 * second copy (docs/download.md, "Measurements behind the code"). Any other stream gives its own
 * pieces as they come, and the decryptor joins them as before.
 *
 * Blob.stream()'s BYOB reader stalls in Chromium once a worker has dropped some tens of MiB of
 * ArrayBuffers (blob-record-reader.ts); a fetch body's did not, over every download measured since
 * (docs/download.md). Were it to, the page's no-progress watchdog aborts the fetch, which ends the
 * pending read.
 *
 * A piece from a byte stream is therefore valid only until the read after next, which fills its
 * buffer again. The decrypting stream pushes each piece into the record decryptor before it reads
 * the next; the decryptor hands every record it can to WebCrypto at once, which copies its input
 * when called, and holds back at most the last record of the newest piece.
 */
export interface CiphertextPieces {
  /**
   * The next bytes, or null at the end: exactly `size` of them from a byte stream (fewer only at
   * its end; valid until the read after next), the source's own next piece otherwise.
   */
  read(size: number): Promise<Uint8Array | null>;
  cancel(reason?: unknown): Promise<void>;
}

/** The piece being read and the one the decryptor may still hold a record of. */
const BUFFERS_IN_TURN = 2;

function piecesAsTheyCome(stream: ReadableStream<Uint8Array>): CiphertextPieces {
  const reader = stream.getReader();
  return {
    async read() {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return null;
        if (value.byteLength > 0) return value;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

export function ciphertextPieces(stream: ReadableStream<Uint8Array>): CiphertextPieces {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream (one a test or a wrapper built): no buffer of ours to read into.
    return piecesAsTheyCome(stream);
  }
  /** The buffers of the last two pieces handed on, older first. */
  const handedOn: ArrayBuffer[] = [];
  return {
    async read(size) {
      const free = handedOn.length === BUFFERS_IN_TURN ? handedOn.shift() : undefined;
      let buffer = free?.byteLength === size ? free : new ArrayBuffer(size);
      let filled = 0;
      while (filled < size) {
        const { value, done } = await reader.read(new Uint8Array(buffer, filled, size - filled));
        // Cancelled: the buffer went with the read.
        if (!value) return null;
        // Each read transfers the buffer; what it filled lives on in the one it gives back.
        buffer = value.buffer as ArrayBuffer;
        filled += value.byteLength;
        if (done) break;
      }
      if (filled === 0) return null;
      handedOn.push(buffer);
      return new Uint8Array(buffer, 0, filled);
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
