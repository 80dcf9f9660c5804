// When to try a request again (docs/operations.md, "Command-line upload and fetch"): a request with
// no answer, a 5xx, a 408, 423 (another process holds the upload) or a tus offset conflict is tried
// again after growing delays, about five minutes in all, which covers a server restart; the
// budget starts over whenever bytes got through. Everything else is an answer to act on.
import { ApiRequestError, NetworkError } from './errors.ts';

/** Waits before attempts 2, 3, ...: about five minutes in all. */
export const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000, 30_000, 60_000, 60_000];

export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiRequestError) return error.status >= 500 || error.status === 408 || error.status === 423;
  return false;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryHooks {
  signal?: AbortSignal;
  /** Told before each wait: what failed and how long until the next attempt. */
  onRetry?: (error: unknown, waitMs: number) => void;
}

/** Runs `attempt` until it succeeds, fails with something not retryable, or the delays run out. */
export async function withRetries<T>(attempt: () => Promise<T>, hooks: RetryHooks = {}): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = RETRY_DELAYS_MS[tries];
      if (!isRetryable(error) || wait === undefined || hooks.signal?.aborted) throw error;
      hooks.onRetry?.(error, wait);
      await sleep(wait, hooks.signal);
    }
  }
}
