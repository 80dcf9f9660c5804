/**
 * Where an encryption job sends plaintext records to be hashed, in file order.
 *
 * SHA-256 of one file is strictly sequential and is the slowest step (several times slower than
 * AES-GCM; docs/upload.md), so for a large file the pool may put the hashing on a second worker: the
 * encrypting worker reads the file once and transfers each record buffer to the hashing worker over
 * a MessagePort, which hands the buffer back after hashing (for reuse). At most
 * MAX_RECORDS_IN_FLIGHT buffers are on the way, so memory stays bounded and a slow hasher slows
 * the reader (backpressure) instead of queueing the file in memory.
 *
 * Either sink can start from a saved state (a resumed upload) and takes snapshots of its state as
 * it goes (workers/hash-checkpoints.ts); the hashing worker posts its snapshots back.
 */
import { type Sha256Hex, CryptoError, createIncrementalSha256, type IncrementalSha256 } from '../crypto/index.ts';
import { HashCheckpoints, type HashCheckpoint } from './hash-checkpoints.ts';
import { toWireError, type WireError } from './wire-errors.ts';

export interface HashSink {
  /**
   * Before the first update: continue from `from` (records [0, from.records) already hashed) and
   * take a snapshot every `every` records (0: never). Resolves with the records already hashed:
   * `from.records`, or 0 when the state could not be loaded (another hash-wasm build, corrupt).
   */
  start(from: HashCheckpoint | undefined, every: number): Promise<number>;
  /**
   * Takes ownership of `buffer` (its first `length` bytes are the next plaintext); `recycle` is
   * called with a buffer once the sink no longer needs it. May wait (backpressure).
   */
  update(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void>;
  digest(): Promise<Sha256Hex>;
  abort(): void;
  /** The newest snapshot covering at most `maxRecords` records, or null. */
  checkpoint(maxRecords: number): HashCheckpoint | null;
}

/**
 * Loads `from` into `hasher`; the records now hashed. A state that does not load is not an error:
 * it is no key material, only saved work, and hashing from byte 0 gives the same digest (not a
 * crypto fallback: the result is identical either way, it just takes longer).
 */
function loadCheckpoint(hasher: IncrementalSha256, from: HashCheckpoint | undefined): number {
  if (!from) return 0;
  try {
    hasher.load(from.state);
    return from.records;
  } catch (error) {
    console.warn('hash checkpoint not loadable, hashing from byte 0', error);
    return 0;
  }
}

export class LocalHashSink implements HashSink {
  private checkpoints = new HashCheckpoints(0);
  private records = 0;

  private constructor(private readonly hasher: IncrementalSha256) {}

  static async create(): Promise<LocalHashSink> {
    return new LocalHashSink(await createIncrementalSha256());
  }

  async start(from: HashCheckpoint | undefined, every: number): Promise<number> {
    this.checkpoints = new HashCheckpoints(every);
    this.records = loadCheckpoint(this.hasher, from);
    return this.records;
  }

  async update(buffer: ArrayBuffer, length: number, recycle: (buffer: ArrayBuffer) => void): Promise<void> {
    this.hasher.update(new Uint8Array(buffer, 0, length));
    recycle(buffer);
    if (this.checkpoints.due(++this.records)) this.checkpoints.add({ records: this.records, state: this.hasher.save() });
  }

  checkpoint(maxRecords: number): HashCheckpoint | null {
    return this.checkpoints.latestWithin(maxRecords);
  }

  async digest(): Promise<Sha256Hex> {
    return this.hasher.digestHex();
  }

  abort(): void {}
}

type ToHasher =
  | { type: 'start'; from: HashCheckpoint | undefined; every: number }
  | { type: 'data'; buffer: ArrayBuffer; length: number }
  | { type: 'end' }
  | { type: 'abort' };
type FromHasher =
  | { type: 'started'; records: number }
  | { type: 'ack'; buffer: ArrayBuffer }
  | { type: 'checkpoint'; records: number; state: Uint8Array }
  | { type: 'digest'; hex: Sha256Hex }
  | { type: 'error'; error: WireError };

const MAX_RECORDS_IN_FLIGHT = 8;

/** The encrypting worker's end of the hashing channel. */
export class PortHashSink implements HashSink {
  private inFlight = 0;
  private recycleBuffer: (buffer: ArrayBuffer) => void = () => undefined;
  private wakeSender: (() => void) | undefined;
  private digestWaiter: { resolve: (hex: Sha256Hex) => void; reject: (error: Error) => void } | undefined;
  private startWaiter: ((records: number) => void) | undefined;
  private checkpoints = new HashCheckpoints(0);
  private failure: Error | undefined;
  /** Updates and the final digest request are posted strictly in call order. */
  private sequence: Promise<void> = Promise.resolve();

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<FromHasher>) => this.onMessage(event.data);
  }

  start(from: HashCheckpoint | undefined, every: number): Promise<number> {
    this.checkpoints = new HashCheckpoints(every);
    const started = this.sequence.then(() => {
      if (this.failure) throw this.failure;
      return new Promise<number>((resolve) => {
        this.startWaiter = resolve;
        this.port.postMessage({ type: 'start', from, every } satisfies ToHasher);
      });
    });
    this.sequence = started.then(
      () => undefined,
      () => undefined,
    );
    return started;
  }

  checkpoint(maxRecords: number): HashCheckpoint | null {
    return this.checkpoints.latestWithin(maxRecords);
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
    if (message.type === 'started') {
      this.startWaiter?.(message.records);
      this.startWaiter = undefined;
    } else if (message.type === 'checkpoint') {
      this.checkpoints.add({ records: message.records, state: message.state });
    } else if (message.type === 'ack') {
      this.inFlight--;
      this.recycleBuffer(message.buffer);
      this.wakeSender?.();
      this.wakeSender = undefined;
    } else if (message.type === 'digest') {
      this.port.close();
      this.digestWaiter?.resolve(message.hex);
    } else {
      this.fail(new CryptoError('WORKER_FAILED', `hashing worker failed: ${message.error.message}`));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wakeSender?.();
    this.wakeSender = undefined;
    this.digestWaiter?.reject(error);
    this.digestWaiter = undefined;
    // A start that never got its answer continues from byte 0; the failure surfaces at the next update.
    this.startWaiter?.(0);
    this.startWaiter = undefined;
  }
}

/** The hashing worker's end: hashes whatever arrives, in order, until 'end' or 'abort'; posts its snapshots back. */
export async function serveHashPort(port: MessagePort): Promise<void> {
  const hasher = await createIncrementalSha256();
  let checkpoints = new HashCheckpoints(0);
  let records = 0;
  port.onmessage = (event: MessageEvent<ToHasher>) => {
    const message = event.data;
    try {
      if (message.type === 'start') {
        checkpoints = new HashCheckpoints(message.every);
        records = loadCheckpoint(hasher, message.from);
        port.postMessage({ type: 'started', records } satisfies FromHasher);
      } else if (message.type === 'data') {
        hasher.update(new Uint8Array(message.buffer, 0, message.length));
        records++;
        if (checkpoints.due(records)) {
          const state = hasher.save();
          port.postMessage({ type: 'checkpoint', records, state } satisfies FromHasher, [state.buffer as ArrayBuffer]);
        }
        port.postMessage({ type: 'ack', buffer: message.buffer } satisfies FromHasher, [message.buffer]);
      } else if (message.type === 'end') {
        port.postMessage({ type: 'digest', hex: hasher.digestHex() } satisfies FromHasher);
        port.close();
      } else {
        port.close();
      }
    } catch (error) {
      port.postMessage({ type: 'error', error: toWireError(error) } satisfies FromHasher);
      port.close();
    }
  };
}
