// A new service worker waiting to take over (workbox-window's 'waiting'), as a tiny external store
// for the update prompt. It never takes over by itself: the person chooses "Reload to update".

type Listener = () => void;

let apply: (() => void) | null = null;
let waiting: ServiceWorker | null = null;
const listeners = new Set<Listener>();

/** `worker` is the waiting service worker, asked for its build digest (buildIdentity.ts). */
export function updateWaiting(applyUpdate: () => void, worker: ServiceWorker | null = null): void {
  apply = applyUpdate;
  waiting = worker;
  for (const listener of listeners) listener();
}

/** The waiting service worker, when the browser named it. */
export function waitingWorker(): ServiceWorker | null {
  return waiting;
}

/** The function that activates the waiting worker and reloads, or null when there is none. */
export function waitingUpdate(): (() => void) | null {
  return apply;
}

export function subscribeUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
