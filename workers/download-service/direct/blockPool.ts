/**
 * The blocks the direct save gathers plaintext into (diskWriter.ts), reused from one write to the
 * next instead of allocated anew. A fresh 16 MiB block costs the kernel a page fault and a cleared
 * page for every 4 KiB the first time it is filled, a large share of the download worker's CPU
 * (measured in docs/operations.md, "The blocks pooled, done properly").
 *
 * A block comes back only once the writable's write of it has settled, never when it is handed on:
 * until then the writable may still read it, and a block filled again too early would put the
 * next bytes on disk in its place. Hand-written because no library pools typed-array blocks for a
 * WritableStream; it is a free list and a set.
 */
export class BlockPool {
  private readonly free: Uint8Array[] = [];
  /** The buffers of blocks handed out and not yet given back. */
  private readonly lent = new Set<ArrayBufferLike>();

  constructor(
    readonly blockBytes: number,
    /** Free blocks kept at most; the rest are left to the garbage collector. */
    private readonly keepFree = 4,
  ) {}

  take(): Uint8Array {
    const block = this.free.pop() ?? new Uint8Array(this.blockBytes);
    this.lent.add(block.buffer);
    return block;
  }

  /** A block, or the start of one, whose write has settled. Bytes the pool did not lend are ignored. */
  giveBack(bytes: Uint8Array): void {
    if (!this.lent.delete(bytes.buffer)) return;
    if (this.free.length < this.keepFree) this.free.push(new Uint8Array(bytes.buffer, 0, this.blockBytes));
  }
}
