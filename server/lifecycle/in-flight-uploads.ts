// The upload requests a process is serving (tus requests and multipart batches), so a shutdown
// can let them finish within its grace time and cut the rest at a flushed offset. A cut tus
// PATCH keeps every byte it wrote: the disk store syncs what arrived before it gives up
// (tus-storage.ts FlatFileStore.write), S3 keeps the parts it completed, and the next HEAD reports
// that offset. A cut multipart request deletes what it stored. After cutting, the shutdown waits
// for those writes and deletes to end, so they are over before the database and the store close.
//
// For tus the store's write is what is waited for, not the request's handler: @tus/server answers
// a cut request by writing to a socket that is gone, and that answer never completes.
//
// A request can reach its handler after the cut: it passed routing before the close began and was
// still being authorised (a database round trip) when the cut came. It is cut at once, before its
// handler runs; otherwise its connection, stalled or slow, would hold the close open for good.
import type { IncomingMessage } from 'node:http';

/** How long cut requests may take to put their bytes away when a close has no deadline of its own. */
export const CUT_SETTLE_MS = 5_000;

export interface DrainOutcome {
  /** Requests that ended by themselves before the cut time. */
  finished: number;
  /** Requests whose connection was cut. */
  cut: number;
  /** Writes or handlers still running at the settle deadline (their last bytes may not be synced). */
  unsettled: number;
}

const settledOf = (promise: Promise<unknown>): Promise<void> =>
  promise.then(
    () => undefined,
    () => undefined,
  );

export class InFlightUploads {
  /** Per request: what must end before its bytes count as put away (null: its store writes). */
  private readonly requests = new Map<IncomingMessage, { ended: Promise<void>; waitAfterCut: Promise<void> | null }>();
  private readonly storeWrites = new Set<Promise<void>>();
  /** Set once finishOrCut has cut: later requests are cut on arrival. */
  private cutDone = false;

  get count(): number {
    return this.requests.size;
  }

  /**
   * Runs one upload request's handler, known to the shutdown until it ends. `cutSettles`: the
   * handler itself ends soon after its connection is cut (a multipart batch deleting its blobs);
   * otherwise (tus) the store writes recorded with `storeWrite` are waited for after a cut.
   * Answers undefined, without running the handler, for a request that arrives after the cut: its
   * connection is closed then, so there is nobody to answer.
   */
  async serve<T>(request: IncomingMessage, handler: () => Promise<T>, options: { cutSettles: boolean }): Promise<T | undefined> {
    if (this.cutDone) {
      request.socket?.destroy();
      return undefined;
    }
    const running = handler();
    const ended = settledOf(running);
    this.requests.set(request, { ended, waitAfterCut: options.cutSettles ? ended : null });
    void ended.then(() => this.requests.delete(request));
    return running;
  }

  /** A tus store write in progress (tus-storage's datastore, wrapped by the uploads plugin). */
  storeWrite<T>(write: Promise<T>): Promise<T> {
    const settled = settledOf(write);
    this.storeWrites.add(settled);
    void settled.then(() => this.storeWrites.delete(settled));
    return write;
  }

  /**
   * Waits until every upload request has ended or `cutAt` (epoch ms) has come, then cuts the
   * connections of those still running and waits, until `settleBy` at the latest, for their
   * handlers or store writes to end.
   */
  async finishOrCut(cutAt: number, settleBy: number): Promise<DrainOutcome> {
    const atStart = this.requests.size;
    await settleWithin(
      [...this.requests.values()].map((entry) => entry.ended),
      cutAt - Date.now(),
    );
    const remaining = [...this.requests];
    for (const [request] of remaining) {
      request.socket?.destroy();
      // Forgotten now: a cut tus request's handler may never end (see the header).
      this.requests.delete(request);
    }
    this.cutDone = true;
    const waits = remaining.flatMap(([, entry]) => (entry.waitAfterCut ? [entry.waitAfterCut] : []));
    const unsettled = await settleWithin([...waits, ...this.storeWrites], settleBy - Date.now());
    return { finished: atStart - remaining.length, cut: remaining.length, unsettled };
  }
}

/** Waits for the promises (which never reject) for at most `ms`; answers how many had not settled. */
async function settleWithin(promises: Array<Promise<void>>, ms: number): Promise<number> {
  let done = 0;
  const counted = promises.map((promise) => promise.then(() => void (done += 1)));
  if (ms > 0 && promises.length > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(counted), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }
  return promises.length - done;
}
