// A new service worker waiting to take over (workbox-window's 'waiting'), as a tiny external store
// for the update prompt. It never takes over by itself: the person chooses "Reload to update".

type Listener = () => void;

let apply: (() => void) | null = null;
const listeners = new Set<Listener>();

export function updateWaiting(applyUpdate: () => void): void {
  apply = applyUpdate;
  for (const listener of listeners) listener();
}

/** The function that activates the waiting worker and reloads, or null when there is none. */
export function waitingUpdate(): (() => void) | null {
  return apply;
}

export function subscribeUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
