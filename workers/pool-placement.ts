/**
 * Where the pool's work and keys go: the workers with their estimated load (seconds of work
 * assigned), which workers hold which key, and moving a key worker-to-worker over a MessageChannel
 * when an operation needs it elsewhere (never through the page's thread). CryptoPool (pool.ts) says
 * what to do; this says on which worker.
 */
import { transfer, type Remote } from 'comlink';
import { CryptoError } from '../crypto/index.ts';
import type { CryptoWorkerApi } from './crypto-worker-api.ts';
import type { FileKeyHandle, HandleKind, KeyHandle } from './pool-types.ts';
import type { WorkerLiveness } from './worker-liveness.ts';

export interface PoolWorker {
  readonly index: number;
  readonly worker: Worker;
  /** The worker's API; every call rejects with WORKER_FAILED once the worker has died (worker-liveness.ts). */
  readonly api: Remote<CryptoWorkerApi>;
  readonly liveness: WorkerLiveness;
  load: number;
  failure: Error | undefined;
}

/** Starts the worker for slot `index`; `onDeath` is called once if it dies. */
export type SpawnWorker = (index: number, onDeath: (worker: PoolWorker) => void) => PoolWorker;

export class WorkerPlacement {
  private readonly keyHolders = new Map<string, Set<number>>();
  /** Keys whose every copy was in workers that died: asking for them is WORKER_FAILED, not UNKNOWN_KEY. */
  private readonly lostKeys = new Set<string>();
  private terminated = false;
  readonly workers: PoolWorker[];

  constructor(
    size: number,
    private readonly spawn: SpawnWorker,
  ) {
    this.workers = Array.from({ length: size }, (_, index) => this.spawn(index, (dead) => this.replace(dead)));
  }

  /**
   * A worker died: its keys are gone with it, it is terminated (a worker that fired `error` may
   * still run) and a fresh worker takes its slot. The calls pending on it were rejected by its
   * liveness (worker-liveness.ts); work started after this goes to the new worker.
   */
  private replace(dead: PoolWorker): void {
    dead.failure ??= dead.liveness.failed;
    dead.worker.terminate();
    for (const [id, holders] of this.keyHolders) {
      if (!holders.delete(dead.index) || holders.size > 0) continue;
      this.keyHolders.delete(id);
      this.lostKeys.add(id);
    }
    if (this.terminated || this.workers[dead.index] !== dead) return;
    this.workers[dead.index] = this.spawn(dead.index, (next) => this.replace(next));
  }

  /** Which workers hold a key (diagnostics and tests). */
  keyLocations(handle: KeyHandle<HandleKind>): number[] {
    return [...(this.keyHolders.get(handle.id) ?? [])].sort();
  }

  /** Ends every worker; calls still pending on them reject with WORKER_FAILED. */
  terminate(): void {
    this.terminated = true;
    for (const { worker, liveness } of this.workers) {
      worker.terminate();
      liveness.fail(new CryptoError('WORKER_FAILED', 'the crypto pool was terminated'));
    }
    this.keyHolders.clear();
  }

  /** Forgets a key's locations and returns the workers that held it. */
  forgetKey(handle: KeyHandle<HandleKind>): PoolWorker[] {
    const holders = this.keyHolders.get(handle.id);
    this.keyHolders.delete(handle.id);
    this.lostKeys.delete(handle.id);
    return [...(holders ?? [])].map((index) => this.workers[index]!).filter((w) => !w.failure);
  }

  live(): PoolWorker[] {
    if (this.terminated) throw new CryptoError('WORKER_FAILED', 'the crypto pool was terminated');
    const live = this.workers.filter((w) => !w.failure);
    if (live.length === 0) throw this.workers[0]?.failure ?? new CryptoError('WORKER_FAILED', 'no crypto worker is running');
    return live;
  }

  leastBusy(): PoolWorker {
    return this.live().reduce((best, w) => (w.load < best.load ? w : best));
  }

  /**
   * Chooses the encrypting and the hashing worker for one file: the pair that keeps the busiest
   * worker least busy; on a tie, one worker for both (no records cross between workers).
   */
  placeEncryption(encryptCost: number, hashCost: number, placement: 'auto' | 'same-worker' | 'other-worker'): [PoolWorker, PoolWorker] {
    const live = this.live();
    let best: [PoolWorker, PoolWorker] = [live[0]!, live[0]!];
    let bestScore = Number.POSITIVE_INFINITY;
    for (const e of live) {
      for (const h of live) {
        if (placement === 'same-worker' && e !== h) continue;
        if (placement === 'other-worker' && e === h && live.length > 1) continue;
        const loads = live.map((w) => w.load + (w === e ? encryptCost : 0) + (w === h ? hashCost : 0));
        const score = Math.max(...loads) + (e === h ? 0 : 1e-9);
        if (score < bestScore - 1e-12) {
          bestScore = score;
          best = [e, h];
        }
      }
    }
    return best;
  }

  async run<T>(worker: PoolWorker, cost: number, task: (w: PoolWorker) => Promise<T>): Promise<T> {
    if (worker.failure) throw worker.failure;
    worker.load += cost;
    try {
      return await task(worker);
    } finally {
      worker.load -= cost;
    }
  }

  adoptKey<Kind extends HandleKind>(id: string, kind: Kind, holder: PoolWorker): KeyHandle<Kind> {
    if (holder.failure) throw holder.failure;
    this.keyHolders.set(id, new Set([holder.index]));
    return { id, kind } as KeyHandle<Kind>;
  }

  adoptKeyMap(ids: Record<string, string>, holder: PoolWorker): Map<string, FileKeyHandle> {
    return new Map(Object.entries(ids).map(([fileId, id]) => [fileId, this.adoptKey<'file'>(id, 'file', holder)]));
  }

  holderOf(handle: KeyHandle<HandleKind>): PoolWorker {
    if (this.lostKeys.has(handle.id)) throw new CryptoError('WORKER_FAILED', 'the worker holding this key failed');
    const holders = this.keyHolders.get(handle.id);
    if (!holders || holders.size === 0) throw new CryptoError('UNKNOWN_KEY', 'this key handle was released or never created');
    const live = [...holders].map((index) => this.workers[index]!).filter((w) => !w.failure);
    if (live.length === 0) throw new CryptoError('WORKER_FAILED', 'the worker holding this key failed');
    return live.reduce((best, w) => (w.load < best.load ? w : best));
  }

  /** Copies a key to `target` (worker to worker over a MessageChannel) unless it is already there. */
  /**
   * Copies a key to `target` (worker to worker over a MessageChannel) unless it is already there.
   * A releaseKey while the copy is on its way would miss the copy (the target was not yet a
   * holder), so a copy that arrives after a release is forgotten in the target at once.
   */
  async ensureKeyOn(handle: KeyHandle<HandleKind>, target: PoolWorker): Promise<void> {
    const source = this.holderOf(handle);
    const holders = this.keyHolders.get(handle.id)!;
    if (holders.has(target.index)) return;
    const channel = new MessageChannel();
    const received = target.api.receiveKey(transfer(channel.port2, [channel.port2]));
    await source.api.sendKey(handle.id, transfer(channel.port1, [channel.port1]));
    await received;
    if (this.keyHolders.get(handle.id) !== holders || target.failure) {
      await target.api.releaseKey(handle.id).catch(() => undefined);
      throw new CryptoError('UNKNOWN_KEY', 'this key handle was released while it was being copied');
    }
    holders.add(target.index);
  }

  /** The worker holding most of these keys, after copying the rest to it. */
  async gatherKeys(keys: readonly FileKeyHandle[]): Promise<PoolWorker> {
    if (keys.length === 0) throw new CryptoError('MALFORMED', 'a link needs at least one file key');
    const counts = new Map<number, number>();
    for (const key of keys) {
      for (const index of this.keyHolders.get(key.id) ?? []) counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    let target = this.leastBusy();
    let most = -1;
    for (const [index, count] of counts) {
      if (count > most && !this.workers[index]!.failure) {
        most = count;
        target = this.workers[index]!;
      }
    }
    for (const key of keys) await this.ensureKeyOn(key, target);
    return target;
  }
}
