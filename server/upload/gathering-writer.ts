/**
 * How the disk store of tus uploads (tus-storage.ts) writes a PATCH body into the upload's file:
 * in batches as it arrives, flushed to the disk while it arrives, everything written and flushed
 * before the PATCH is answered. Hand-written: @tus/file-store's own write() pipes into a write
 * stream that neither batches by size nor flushes (docs/upload.md, "Server writes").
 */
import type { FileHandle } from 'node:fs/promises';

/**
 * Writes what a request brings at the file's position as it arrives: one write in flight, the
 * pieces that arrive meanwhile gathered into the next (writev) once they make MIN_WRITE_BYTES, the
 * request paused while WRITE_BATCH_BYTES wait; flushed to the disk as it goes (OverlappedFlush).
 * finish() writes whatever is still waiting, so a request that broke off keeps every byte it
 * brought.
 */
export class GatheringWriter {
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  private inFlight: Promise<void> | null = null;
  private failure: unknown = null;
  private ending = false;
  /** Writes what waits below MIN_WRITE_BYTES once the body pauses (see MIN_WRITE_WAIT_MS). */
  private pauseTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly flusher: OverlappedFlush;

  /** `pauseWaitMs`: how long less than MIN_WRITE_BYTES waits for more (tests set it). */
  constructor(
    private readonly handle: FileHandle,
    public position: number,
    private readonly pauseWaitMs = MIN_WRITE_WAIT_MS,
  ) {
    this.flusher = new OverlappedFlush(handle, position);
  }

  async add(piece: Buffer): Promise<void> {
    if (this.failure !== null) throw this.failure;
    this.waiting.push(piece);
    this.waitingBytes += piece.length;
    this.pump();
    while (this.waitingBytes >= WRITE_BATCH_BYTES && this.inFlight !== null) await this.inFlight;
    if (this.failure !== null) throw this.failure;
  }

  async finish(): Promise<void> {
    this.ending = true;
    this.pump();
    while (this.inFlight !== null) await this.inFlight;
    const failure = this.failure;
    await this.flusher.finish();
    if (failure !== null) throw failure;
  }

  private pump(paused = false): void {
    if (this.inFlight !== null || this.waitingBytes === 0 || this.failure !== null) return;
    if (this.waitingBytes < MIN_WRITE_BYTES && !this.ending && !paused) {
      this.pauseTimer ??= setTimeout(() => {
        this.pauseTimer = null;
        this.pump(true);
      }, this.pauseWaitMs);
      return;
    }
    if (this.pauseTimer !== null) {
      clearTimeout(this.pauseTimer);
      this.pauseTimer = null;
    }
    const pieces = this.waiting;
    const bytes = this.waitingBytes;
    this.waiting = [];
    this.waitingBytes = 0;
    this.inFlight = this.writeAll(pieces, bytes).then(
      () => {
        this.position += bytes;
        this.flusher.wrote(this.position);
        this.inFlight = null;
        this.pump();
      },
      (error: unknown) => {
        this.failure = error;
        this.inFlight = null;
      },
    );
  }

  private async writeAll(pieces: Buffer[], bytes: number): Promise<void> {
    let written = (await this.handle.writev(pieces, this.position)).bytesWritten;
    // A short write (rare: a full disk, a signal) continues with what is left.
    if (written < bytes) {
      const rest = Buffer.concat(pieces);
      while (written < bytes) written += (await this.handle.write(rest, written, bytes - written, this.position + written)).bytesWritten;
    }
  }
}

/** Bytes of a request held in memory while a write is in flight, before the request is paused. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/**
 * The least a write takes while the body still arrives. A socket hands over at most 64 KiB at a
 * time, and a client that sends slower than the disk takes it (an encrypting browser) got one
 * write, one thread-pool hop and one promise per 64 KiB piece (the CPU it cost: docs/upload.md,
 * "Measurements behind the choices").
 */
const MIN_WRITE_BYTES = 512 * 1024;
/**
 * How long less than MIN_WRITE_BYTES waits for more: a body that pauses (a sender gone quiet)
 * still has what it brought in the file soon, as before, so a crash loses no more than it did.
 */
const MIN_WRITE_WAIT_MS = 20;
/** Bytes written between flushes started while the body still arrives. */
const FLUSH_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * fdatasync while the request body still arrives, one at a time, every FLUSH_EVERY_BYTES, so the
 * disk writes back during the transfer and the flush before the answer has only the tail left;
 * one flush at the end costs most of the server's throughput (docs/upload.md, "Measurements
 * behind the choices").
 */
class OverlappedFlush {
  private running: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly handle: FileHandle,
    private flushedUpTo: number,
  ) {}

  /** The file now holds bytes up to `position`. */
  wrote(position: number): void {
    if (this.running !== null || position - this.flushedUpTo < FLUSH_EVERY_BYTES) return;
    this.running = this.handle.datasync().then(
      () => {
        this.flushedUpTo = position;
        this.running = null;
      },
      (error: unknown) => {
        this.failure = error;
        this.running = null;
      },
    );
  }

  async finish(): Promise<void> {
    await this.running;
    if (this.failure !== null) throw this.failure;
    await this.handle.datasync();
  }
}

