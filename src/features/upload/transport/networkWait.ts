// Waiting for the network without polling: the browser's 'online' event ends the wait (a laptop
// waking up, Wi-Fi coming back), and so does the end of the delay or the upload being stopped.
// Timers here only decide when to try again; they never pace the data (a background tab may
// stretch them, which costs nothing but a slightly later retry).

import { TransportError } from './transportError.ts';

export function browserIsOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Resolves after `delayMs` (never, when null) or at the next 'online' event; rejects on abort. */
export function waitForRetry(delayMs: number | null, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(TransportError.aborted());
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (error?: TransportError) => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', onOnline);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onOnline = () => done();
    const onAbort = () => done(TransportError.aborted());
    globalThis.addEventListener?.('online', onOnline);
    signal.addEventListener('abort', onAbort);
    if (delayMs !== null) timer = setTimeout(() => done(), delayMs);
  });
}
