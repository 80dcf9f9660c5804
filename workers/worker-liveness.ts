/**
 * Liveness of one pool worker: every call sent to it settles, even when it dies.
 *
 * Comlink does not reject the calls already sent to a worker that errors or is terminated: their
 * promises would wait forever, and with them the upload or download that awaited them. So each
 * call through `guard` races the worker's end: once the worker fires `error` (an exception nobody
 * caught), `messageerror` (a message it could not deserialise) or is terminated, every call still
 * pending on it, and every later one, rejects with CryptoError WORKER_FAILED. The pool then puts a
 * fresh worker in its place (pool.ts).
 *
 * A worker can also stop without an event: it closed itself, its thread is blocked, or it went in
 * a way the browser does not report. While calls are pending on any worker of the pool, every
 * worker is pinged (a call it answers at once whenever its event loop runs: `Heartbeat`, one timer
 * per pool, so an idle worker that stopped is found before work is given to it); one that leaves
 * `missedLimit` pings in a row unanswered counts as dead in the same way. Pings are counted, not
 * timed, so a laptop that slept or a throttled background tab (timers firing late) never makes a
 * live worker look dead.
 *
 * A worker whose event loop runs while one of its calls waits on a wedged browser storage or
 * WebCrypto operation answers its pings: that case is the work's own, and each kind of work
 * watches it where it knows how long it may take (docs/architecture.md, "Liveness").
 */
import type { Remote } from 'comlink';
import { CryptoError } from '../crypto/index.ts';

/** Default heartbeat: a worker that answers no ping for about 30 s is dead. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
export const HEARTBEAT_MISSED_LIMIT = 6;

interface Member {
  /** A call the worker answers as soon as its event loop runs (sent past the guard). */
  readonly ping: () => Promise<unknown>;
  readonly onSilent: () => void;
  outstanding: boolean;
  missed: number;
}

/** The pool's pings: one timer, running while any call is pending on any of its workers. */
export class Heartbeat {
  private readonly members = new Map<WorkerLiveness, Member>();
  private pending = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly intervalMs: number = HEARTBEAT_INTERVAL_MS,
    readonly missedLimit: number = HEARTBEAT_MISSED_LIMIT,
  ) {}

  join(liveness: WorkerLiveness, ping: () => Promise<unknown>, onSilent: () => void): void {
    this.members.set(liveness, { ping, onSilent, outstanding: false, missed: 0 });
  }

  leave(liveness: WorkerLiveness): void {
    this.members.delete(liveness);
  }

  callStarted(): void {
    if (++this.pending === 1) this.timer = setInterval(() => this.beat(), this.intervalMs);
  }

  callEnded(): void {
    if (--this.pending > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private beat(): void {
    for (const member of [...this.members.values()]) {
      if (member.outstanding) {
        if (++member.missed >= this.missedLimit) member.onSilent();
        continue;
      }
      member.outstanding = true;
      member.ping().then(
        () => {
          member.outstanding = false;
          member.missed = 0;
        },
        () => (member.outstanding = false),
      );
    }
  }
}

export class WorkerLiveness {
  private failure: CryptoError | undefined;
  private readonly waiting = new Set<(error: CryptoError) => void>();

  constructor(private readonly heartbeat?: Heartbeat) {}

  get failed(): CryptoError | undefined {
    return this.failure;
  }

  /** Marks the worker dead (once) and rejects everything waiting on it. */
  fail(error: CryptoError): void {
    if (this.failure) return;
    this.failure = error;
    this.heartbeat?.leave(this);
    for (const reject of this.waiting) reject(error);
    this.waiting.clear();
  }

  /** Calls `callback` once if this worker dies; the returned function unsubscribes. */
  onFailure(callback: (error: CryptoError) => void): () => void {
    if (this.failure) {
      callback(this.failure);
      return () => undefined;
    }
    this.waiting.add(callback);
    return () => this.waiting.delete(callback);
  }

  /** `work`, or WORKER_FAILED as soon as this worker (or any of `others`) has died. */
  watch<T>(work: Promise<T>, others: readonly WorkerLiveness[] = []): Promise<T> {
    const all = [this, ...others];
    const dead = all.find((liveness) => liveness.failure)?.failure;
    if (dead) {
      work.catch(() => undefined);
      return Promise.reject(dead);
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        for (const liveness of all) {
          liveness.waiting.delete(onDeath);
          liveness.callEnded();
        }
      };
      const onDeath = (error: CryptoError) => {
        work.catch(() => undefined);
        settle();
        reject(error);
      };
      for (const liveness of all) {
        liveness.waiting.add(onDeath);
        liveness.callStarted();
      }
      work.then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }

  private callStarted(): void {
    this.heartbeat?.callStarted();
  }

  private callEnded(): void {
    this.heartbeat?.callEnded();
  }

  /**
   * `api` with every method call watched (this worker and `others`). The proxy is not thenable, so
   * it can be returned from an async function like the Comlink proxy it stands for.
   */
  guard<Api>(api: Remote<Api>, others: readonly WorkerLiveness[] = []): Remote<Api> {
    const target = api as unknown as Record<PropertyKey, (...args: unknown[]) => Promise<unknown>>;
    return new Proxy({} as Remote<Api>, {
      get: (_, property) => {
        if (property === 'then') return undefined;
        return (...args: unknown[]) => {
          if (this.failure) return Promise.reject(this.failure);
          return this.watch(target[property]!(...args), others);
        };
      },
    });
  }
}

/**
 * Watches a Worker's `error` and `messageerror` events, and with a heartbeat whether it still
 * answers while calls are pending; `name` goes into the error's message.
 */
export function watchWorker(worker: Worker, name: string, onDeath: (error: CryptoError) => void, heartbeat?: { beat: Heartbeat; ping: () => Promise<unknown> }): WorkerLiveness {
  const die = (what: string) => {
    if (liveness.failed) return;
    liveness.fail(new CryptoError('WORKER_FAILED', `${name} ${what}`));
    onDeath(liveness.failed!);
  };
  const liveness = new WorkerLiveness(heartbeat?.beat);
  heartbeat?.beat.join(liveness, heartbeat.ping, () => die(`stopped answering (${heartbeat.beat.missedLimit} pings in a row)`));
  worker.addEventListener('error', (event) => die(`failed: ${(event as ErrorEvent).message ?? 'error'}`));
  worker.addEventListener('messageerror', () => die('sent a message that could not be read'));
  return liveness;
}
