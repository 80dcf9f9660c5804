// Which transfers this page is running right now, as a tiny external store: the update prompt
// (src/app/layout/UpdatePrompt.tsx) must not reload the page in the middle of one. A feature marks
// a transfer's start and calls the returned function when it ends.

type Listener = () => void;

let running = 0;
const listeners = new Set<Listener>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** Marks a transfer as running; the returned function ends it (calling it twice ends it once). */
export function transferStarted(): () => void {
  running++;
  changed();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    running--;
    changed();
  };
}

export function isTransferRunning(): boolean {
  return running > 0;
}

export function subscribeTransfers(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
