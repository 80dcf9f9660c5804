// Fakes of the engine's ports for its unit tests: a crypto pool whose opens can be held, a
// transport whose every request is a deferred the test settles, an upload journal, and an
// events recorder. Nothing here waits on real time.

import type { FileKeyHandle } from '../../../../../workers/index.ts';
import { CryptoError } from '../../../../../crypto/index.ts';
import type { UploadResult } from '../../../../api/types.ts';
import type { EncryptedFile, SendHooks } from '../../transport/multipartBatch.ts';
import { TransportError } from '../../transport/transportError.ts';
import type { TusSendOptions, TusSent } from '../../transport/tusUpload.ts';
import type {
  CompletedUpload,
  EncryptionSessionLike,
  EncryptorPool,
  FileIdentity,
  HashCheckpoint,
  OpenOptions,
  SentSignature,
  SmallFileEncryption,
  UploadFile,
  UploadJournal,
  UploadTransport,
} from '../enginePorts.ts';
import type { EngineEvents, FinalOutcome, ProcessingStatus } from '../runEvents.ts';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  settled: boolean;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve: (value) => {
      d.settled = true;
      resolve(value);
    },
    reject: (error) => {
      d.settled = true;
      reject(error);
    },
  };
  return d;
}

/** Lets pending promise callbacks run until `condition` holds; fails instead of hanging. */
export async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let turn = 0; turn < 50_000; turn++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error(`never reached: ${what}`);
}

/** Lets every pending promise callback run. */
export async function drain(): Promise<void> {
  for (let turn = 0; turn < 20_000; turn++) await Promise.resolve();
}

/** The record size a fake session reports unless it was opened with one. */
export const FAKE_RECORD_SIZE = 256 * 1024;

/** Ciphertext bytes of a plaintext of `size` bytes in the fake (any deterministic rule will do). */
export const fakeCipherSize = (size: number) => size + 16;

let fileCounter = 0;

export function uploadFile(name: string, size: number, relativePath = '.'): UploadFile {
  const id = `file-${++fileCounter}`;
  // A File that claims `size` bytes without holding them: the fakes never read it.
  const file = new File([], name, { lastModified: 1_700_000_000_000 });
  Object.defineProperty(file, 'size', { value: size });
  return { id, file, name, relativePath, size, lastModified: file.lastModified };
}

/** The fake's content signature of the records up to a ciphertext offset: the offset itself. */
export const fakeSignature = (cipherEnd: number): SentSignature => ({ records: cipherEnd, digest: `signed-${cipherEnd}` });

export class FakeSession implements EncryptionSessionLike {
  readonly key: FileKeyHandle;
  readonly iv: string;
  readonly wrappedKey = 'wrapped-key';
  encryptedLength: number;
  recordSize: number;
  formatVersion = 1;
  closed = false;
  /** Set: the file as read now differs from what a resumed session's signature covers. */
  changedSinceSent = false;
  readonly verified: SentSignature[] = [];
  readBodyError: unknown = null;
  sha256Error: unknown = null;
  /** What hashCheckpoint answers for a confirmed offset (default: none). */
  checkpointAt: (confirmedCipherOffset: number) => HashCheckpoint | null = () => null;
  readonly checkpointQueries: number[] = [];

  constructor(
    readonly file: Blob & { name?: string },
    n: number,
    reuse?: OpenOptions['reuse'],
    recordSize?: number,
  ) {
    this.key = reuse?.key ?? ({ id: `key-${n}`, kind: 'file' } as FileKeyHandle);
    this.iv = reuse?.iv ?? `iv-${n}`;
    this.encryptedLength = fakeCipherSize(file.size);
    this.recordSize = recordSize ?? FAKE_RECORD_SIZE;
  }

  async signSent(cipherEnd: number): Promise<SentSignature> {
    return fakeSignature(cipherEnd);
  }

  async verifySent(expected: SentSignature): Promise<number> {
    this.verified.push(expected);
    if (this.changedSinceSent || expected.digest !== fakeSignature(expected.records).digest) throw new CryptoError('SOURCE_CHANGED', 'the file differs');
    return expected.records;
  }

  async readBody(start: number, end: number): Promise<Blob> {
    if (this.readBodyError) throw this.readBodyError;
    return new Blob([new Uint8Array(Math.max(0, Math.min(end, 64) - Math.min(start, 64)))]);
  }

  async sha256(): Promise<string> {
    if (this.sha256Error) throw this.sha256Error;
    return `sha256-of-${this.file.name ?? 'blob'}`;
  }

  async hashCheckpoint(confirmedCipherOffset: number): Promise<HashCheckpoint | null> {
    this.checkpointQueries.push(confirmedCipherOffset);
    return this.checkpointAt(confirmedCipherOffset);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

interface HeldOpen {
  file: Blob & { name?: string };
  answer: Deferred<EncryptionSessionLike>;
}

interface HeldGroup {
  files: ReadonlyArray<Blob & { name?: string }>;
  answer: Deferred<SmallFileEncryption[]>;
}

/** A pool that opens (and encrypts groups of small files) at once, or (with `hold`) only when the test says so. */
export class FakePool implements EncryptorPool {
  hold = false;
  readonly held: HeldOpen[] = [];
  readonly sessions: FakeSession[] = [];
  readonly released: string[] = [];
  /** Opens asked for and not yet closed. */
  open = 0;
  maxOpen = 0;
  /** By file name: its open fails, and as a small file its encryption fails. */
  failOpenOf = new Map<string, unknown>();
  /** By file name: as a small file its hashing fails. */
  failHashOf = new Map<string, Error>();
  /** Set: every group of small files is refused as a whole (a pool that cannot work). */
  refuseGroups: Error | null = null;
  onSession: (session: FakeSession) => void = () => undefined;
  /** Every group of small files asked for, in order. */
  readonly groups: Array<ReadonlyArray<Blob & { name?: string }>> = [];
  readonly heldGroups: HeldGroup[] = [];
  /** Groups asked for and not yet answered. */
  groupsOpen = 0;
  maxGroupsOpen = 0;
  /** Small files whose ciphertext the engine released (sent or given up); each may be released once. */
  smallFilesReleased = 0;

  constructor(readonly size = 1) {}

  readonly opens: Array<OpenOptions | undefined> = [];

  openEncryption(file: Blob & { name?: string }, options?: OpenOptions): Promise<EncryptionSessionLike> {
    this.opens.push(options);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    const failure = file.name !== undefined ? this.failOpenOf.get(file.name) : undefined;
    if (failure !== undefined) {
      this.open--;
      return Promise.reject(failure);
    }
    if (this.hold) {
      const answer = deferred<EncryptionSessionLike>();
      this.held.push({ file, answer });
      return answer.promise;
    }
    return Promise.resolve(this.session(file, options?.reuse, options?.recordSize));
  }

  encryptSmallFiles(files: ReadonlyArray<Blob & { name?: string }>): Promise<SmallFileEncryption[]> {
    this.groups.push(files);
    this.groupsOpen++;
    this.maxGroupsOpen = Math.max(this.maxGroupsOpen, this.groupsOpen);
    const answer = deferred<SmallFileEncryption[]>();
    answer.promise.then(
      () => this.groupsOpen--,
      () => this.groupsOpen--,
    );
    if (this.refuseGroups) answer.reject(this.refuseGroups);
    else if (this.hold) this.heldGroups.push({ files, answer });
    else answer.resolve(this.encryptGroup(files));
    return answer.promise;
  }

  /** Answers the n-th held group of small files. */
  releaseGroup(n = 0): void {
    const held = this.heldGroups[n]!;
    held.answer.resolve(this.encryptGroup(held.files));
  }

  private encryptGroup(files: ReadonlyArray<Blob & { name?: string }>): SmallFileEncryption[] {
    return files.map((file, i): SmallFileEncryption => {
      const name = file.name ?? 'blob';
      const failure = this.failOpenOf.get(name);
      if (failure !== undefined) return { ok: false, stage: 'encrypt', error: failure instanceof Error ? failure : new Error(String(failure)) };
      const hashFailure = this.failHashOf.get(name);
      if (hashFailure) return { ok: false, stage: 'hash', error: hashFailure };
      const cipherSize = fakeCipherSize(file.size);
      let released = false;
      const release = () => {
        if (released) throw new Error(`the ciphertext of ${name} was released twice`);
        released = true;
        this.smallFilesReleased++;
      };
      return { ok: true, iv: `iv-${this.groups.length}-${i}`, wrappedKey: 'wrapped-key', ciphertext: new Uint8Array(cipherSize), cipherSize, sha256: `sha256-of-${name}`, release };
    });
  }

  /** Answers the n-th held open with a fresh session. */
  release(n = 0): FakeSession {
    const session = this.session(this.held[n]!.file);
    this.held[n]!.answer.resolve(session);
    return session;
  }

  async releaseKey(key: FileKeyHandle): Promise<void> {
    this.released.push(key.id);
    this.open--;
  }

  private session(file: Blob & { name?: string }, reuse?: OpenOptions['reuse'], recordSize?: number): FakeSession {
    const session = new FakeSession(file, this.sessions.length + 1, reuse, recordSize);
    this.sessions.push(session);
    this.onSession(session);
    return session;
  }
}

export interface BatchCall {
  files: readonly EncryptedFile[];
  hooks: SendHooks;
  answer: Deferred<unknown>;
}

export interface LargeCall {
  options: TusSendOptions;
  answer: Deferred<TusSent>;
}

export interface CompleteCall {
  uploads: readonly CompletedUpload[];
  answer: Deferred<unknown>;
}

/** Every request waits for the test; an abort of the run rejects it as the real transport does. */
export class FakeTransport implements UploadTransport {
  readonly batches: BatchCall[] = [];
  readonly large: LargeCall[] = [];
  readonly completions: CompleteCall[] = [];
  /** Requests not yet answered. */
  inFlight = 0;
  maxBatchesInFlight = 0;
  maxLargeInFlight = 0;
  private batchesInFlight = 0;
  private largeInFlight = 0;
  abortedRequests = 0;

  sendBatch(_linkToken: string, files: readonly EncryptedFile[], hooks: SendHooks): Promise<unknown> {
    const answer = this.track<unknown>(hooks.signal, (n) => {
      this.batchesInFlight += n;
      this.maxBatchesInFlight = Math.max(this.maxBatchesInFlight, this.batchesInFlight);
    });
    this.batches.push({ files, hooks, answer });
    return answer.promise;
  }

  sendLarge(options: TusSendOptions): Promise<TusSent> {
    const answer = this.track<TusSent>(options.signal, (n) => {
      this.largeInFlight += n;
      this.maxLargeInFlight = Math.max(this.maxLargeInFlight, this.largeInFlight);
    });
    this.large.push({ options, answer });
    return answer.promise;
  }

  complete(_linkToken: string, uploads: readonly CompletedUpload[], hooks: { signal: AbortSignal }): Promise<unknown> {
    const answer = this.track<unknown>(hooks.signal, () => undefined);
    this.completions.push({ uploads, answer });
    return answer.promise;
  }

  private track<T>(signal: AbortSignal, count: (delta: number) => void): Deferred<T> {
    const answer = deferred<T>();
    if (signal.aborted) {
      answer.reject(TransportError.aborted());
      return answer;
    }
    this.inFlight++;
    count(1);
    const done = () => {
      this.inFlight--;
      count(-1);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      this.abortedRequests++;
      answer.reject(TransportError.aborted());
    };
    signal.addEventListener('abort', onAbort);
    answer.promise.then(done, done);
    return answer;
  }
}

/** The journal's calls, in order, by file name. */
export class FakeJournal implements UploadJournal {
  readonly cancelled: FileIdentity[] = [];
  readonly remembered = new Map<string, string>();
  readonly steps: string[] = [];

  async discardEarlier(file: FileIdentity): Promise<void> {
    this.cancelled.push(file);
    this.steps.push(`discard ${file.name}`);
  }

  async opened(file: FileIdentity, session: EncryptionSessionLike): Promise<void> {
    this.steps.push(`opened ${file.name} ${session.key.id} ${session.iv}`);
  }

  /** Every signature stored, by file name (kept apart from `steps`: one per chunk read). */
  readonly signatures: Array<[string, SentSignature]> = [];
  /** Set: each signature's write waits in `heldSignatures` until the test resolves it. */
  holdSignatures = false;
  readonly heldSignatures: Array<Deferred<void>> = [];

  sent(file: FileIdentity, signature: SentSignature): Promise<void> {
    this.signatures.push([file.name, signature]);
    if (!this.holdSignatures) return Promise.resolve();
    const written = deferred<void>();
    this.heldSignatures.push(written);
    return written.promise;
  }

  created(file: FileIdentity, uploadUrl: string): void {
    this.remembered.set(file.name, uploadUrl);
    this.steps.push(`created ${file.name} ${uploadUrl}`);
  }

  confirmed(file: FileIdentity, offset: number): void {
    this.steps.push(`confirmed ${file.name} ${offset}`);
  }

  hashCheckpoint(file: FileIdentity, checkpoint: HashCheckpoint): void {
    this.steps.push(`hash ${file.name} ${checkpoint.records} ${checkpoint.state}`);
  }

  completed(file: FileIdentity): void {
    this.remembered.delete(file.name);
    this.steps.push(`completed ${file.name}`);
  }

  /** One step per call: the files one answer confirmed. */
  deliveredMany(files: readonly FileIdentity[]): void {
    this.steps.push(`delivered ${files.map((file) => file.name).join(', ')}`);
  }
}

export class RecordedEvents implements EngineEvents {
  readonly statuses = new Map<string, ProcessingStatus[]>();
  readonly outcomes = new Map<string, FinalOutcome>();
  readonly finishedOrder: string[] = [];
  readonly progress = new Map<string, number>();
  readonly waits: Array<[string, boolean]> = [];
  sendingStartedCount = 0;
  emptyResponses = 0;

  statusChanged(id: string, status: ProcessingStatus): void {
    this.statuses.set(id, [...(this.statuses.get(id) ?? []), status]);
  }

  progressed(id: string, fraction: number): void {
    this.progress.set(id, fraction);
  }

  waiting(id: string, waiting: boolean): void {
    this.waits.push([id, waiting]);
  }

  finished(id: string, outcome: FinalOutcome): void {
    if (this.outcomes.has(id)) throw new Error(`${id} finished twice`);
    this.outcomes.set(id, outcome);
    this.finishedOrder.push(id);
  }

  sendingStarted(): void {
    this.sendingStartedCount++;
  }

  emptyResponse(): void {
    this.emptyResponses++;
  }
}

/** The answer a well-behaved server gives for these sent files: all stored, ids from 1. */
export function allStored(files: ReadonlyArray<{ name: string; relativePath: string }>, firstId = 1): UploadResult {
  return {
    successful_files: files.map((file, i) => ({
      id: firstId + i,
      filename: file.name,
      original_raw_name_from_client: file.name,
      path: file.relativePath,
      size: 1,
    })),
    failed_files: [],
  };
}
