/**
 * Where an encryption job sends plaintext records to be hashed, in file order.
 *
 * SHA-256 of one file is strictly sequential and is the slowest step (hash-wasm ~190 MB/s against
 * ~850 MB/s for AES-GCM), so for a large file the pool may put the hashing on a second worker: the
 * encrypting worker reads the file once and transfers each record buffer to the hashing worker over
 * a MessagePort, which hands the buffer back after hashing (for reuse). At most
 * MAX_RECORDS_IN_FLIGHT buffers are on the way, so memory stays bounded and a slow hasher slows
 * the reader (backpressure) instead of queueing the file in memory.
 */
import type { Sha256Hex } from '../src/crypto/branded.ts';
import { CryptoError } from '../src/crypto/errors.ts';
import { createIncrementalSha256 } from '../src/crypto/sha256.ts';

export interface HashSink {
  /**
   * Takes ownership of `buffer` (its first `length` bytes are the next plaintext); `recycle` is
   * called with a buffer once the sink no longer needs it. May wait (backpressure).
   */
  update(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void>;
  digest(): Promise<Sha256Hex>;
  abort(): void;
}

export class LocalHashSink implements HashSink {
  private constructor(private readonly hasher: Awaited<ReturnType<typeof createIncrementalSha256>>) {}

  static async create(): Promise<LocalHashSink> {
    return new LocalHashSink(await createIncrementalSha256());
  }

  async update(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void> {
    this.hasher.update(new Uint8Array(buffer, 0, length));
    recycle(buffer);
  }

  async digest(): Promise<Sha256Hex> {
    return this.hasher.digestHex();
  }

  abort(): void {}
}

type ToHasher = { type: 'data'; buffer: ArrayBuffer; length: number } | { type: 'end' } | { type: 'abort' };
type FromHasher = { type: 'ack'; buffer: ArrayBuffer } | { type: 'digest'; hex: Sha256Hex } | { type: 'error'; message: string };

const MAX_RECORDS_IN_FLIGHT = 8;

/** The encrypting worker's end of the hashing channel. */
export class PortHashSink implements HashSink {
  private inFlight = 0;
  private recycleBuffer: (buffer: ArrayBuffer) => void = () => undefined;
  private wakeSender: (() => void) | undefined;
  private digestWaiter: { resolve: (hex: Sha256Hex) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;
  /** Updates and the final digest request are posted strictly in call order. */
  private sequence: Promise<void> = Promise.resolve();

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<FromHasher>) => this.onMessage(event.data);
  }

  update(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void> {
    const step = this.sequence.then(() => this.post(buffer, length, recycle));
    this.sequence = step.catch(() => undefined);
    return step;
  }

  private async post(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void> {
    this.recycleBuffer = recycle;
    while (this.inFlight >= MAX_RECORDS_IN_FLIGHT && !this.failure) {
      await new Promise<void>((resolve) => (this.wakeSender = resolve));
    }
    if (this.failure) throw this.failure;
    this.inFlight++;
    const message: ToHasher = { type: 'data', buffer, length };
    this.port.postMessage(message, [buffer]);
  }

  async digest(): Promise<Sha256Hex> {
    await this.sequence;
    if (this.failure) throw this.failure;
    return new Promise((resolve, reject) => {
      this.digestWaiter = { resolve, reject };
      this.port.postMessage({ type: 'end' } satisfies ToHasher);
    });
  }

  abort(): void {
    this.port.postMessage({ type: 'abort' } satisfies ToHasher);
    this.port.close();
    this.fail(new CryptoError('WORKER_FAILED', 'hashing was aborted'));
  }

  private onMessage(message: FromHasher): void {
    if (message.type === 'ack') {
      this.inFlight--;
      this.recycleBuffer(message.buffer);
      this.wakeSender?.();
      this.wakeSender = undefined;
    } else if (message.type === 'digest') {
      this.port.close();
      this.digestWaiter?.resolve(message.hex);
    } else {
      this.fail(new CryptoError('WORKER_FAILED', `hashing worker failed: ${message.message}`));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wakeSender?.();
    this.wakeSender = undefined;
    this.digestWaiter?.reject(error);
    this.digestWaiter = undefined;
  }
}

/** The hashing worker's end: hashes whatever arrives, in order, until 'end' or 'abort'. */
export async function serveHashPort(port: MessagePort): Promise<void> {
  const hasher = await createIncrementalSha256();
  port.onmessage = (event: MessageEvent<ToHasher>) => {
    const message = event.data;
    try {
      if (message.type === 'data') {
        hasher.update(new Uint8Array(message.buffer, 0, message.length));
        port.postMessage({ type: 'ack', buffer: message.buffer } satisfies FromHasher, [message.buffer]);
      } else if (message.type === 'end') {
        port.postMessage({ type: 'digest', hex: hasher.digestHex() } satisfies FromHasher);
        port.close();
      } else {
        port.close();
      }
    } catch (error) {
      port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies FromHasher);
      port.close();
    }
  };
}
