// Wipes a private key from the workers whenever the keys slice lets go of its handle. The slice is
// cleared by plain actions (sessionEnded from logout, a failed session check or a 401 'Session
// expired'; key generation; restore; a crypto error), which cannot run side effects themselves, so
// one store subscription per store watches the handle and releases the one that was dropped.

import type { AppStore } from '../../app/store.ts';
import { keyOperations } from './keyOperations.ts';
import { selectPrivateKeyHandleId } from './keysSlice.ts';

const watched = new WeakSet<AppStore>();

export function watchPrivateKeyRelease(store: AppStore): void {
  if (watched.has(store)) return;
  watched.add(store);
  let held = selectPrivateKeyHandleId(store.getState());
  store.subscribe(() => {
    const next = selectPrivateKeyHandleId(store.getState());
    if (next === held) return;
    const dropped = held;
    held = next;
    if (dropped) void releaseQuietly(dropped);
  });
}

async function releaseQuietly(handleId: string): Promise<void> {
  try {
    await (await keyOperations()).releasePrivateKey(handleId);
  } catch (error) {
    // A worker that died took the key with it; nothing else holds it. No key material in the log.
    console.warn('Releasing the private key handle failed', error instanceof Error ? error.name : typeof error);
  }
}
