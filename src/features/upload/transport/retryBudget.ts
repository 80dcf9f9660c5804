// When a request of an upload fails, should it be tried again, and when? Offline: wait for the
// connection to return, for as long as it takes (that wait is not counted). Otherwise: retry
// retryable failures (no answer, 5xx, tus offset conflicts) after growing delays, about five
// minutes in all, which covers a server restart or a short outage; the count starts over whenever
// bytes got through. Anything else fails at once.

import { browserIsOffline, waitForRetry } from './networkWait.ts';
import { isRetryable, isTransportError, type TransportError } from './transportError.ts';

export const RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000, 3000, 5000, 8000, 13_000, 21_000, 30_000, 30_000, 60_000, 60_000, 60_000];

export class RetryBudget {
  private attempt = 0;

  constructor(private readonly delays: readonly number[] = RETRY_DELAYS_MS) {}

  /** Bytes were accepted: the next failure starts from the shortest delay again. */
  progressMade(): void {
    this.attempt = 0;
  }

  /**
   * Waits before the next attempt and resolves true, or resolves false when the failure is final.
   * `onWaiting(true)` is called while waiting, `onWaiting(false)` before the retry.
   */
  async beforeRetry(error: TransportError, signal: AbortSignal, onWaiting: (waiting: boolean) => void): Promise<boolean> {
    if (!isRetryable(error)) return false;
    const offline = browserIsOffline();
    if (!offline && this.attempt >= this.delays.length) return false;
    onWaiting(true);
    try {
      await waitForRetry(offline ? null : this.delays[this.attempt++]!, signal);
    } finally {
      onWaiting(false);
    }
    return true;
  }
}

/**
 * Runs `attempt` until it succeeds or fails for good: a retryable transport failure waits as the
 * budget says and tries again; any other failure (or the budget spent) is thrown as it came.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  budget: RetryBudget,
  signal: AbortSignal,
  onWaiting: (waiting: boolean) => void,
): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransportError(error) || !(await budget.beforeRetry(error, signal, onWaiting))) throw error;
    }
  }
}
