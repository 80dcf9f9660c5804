// Wipes a private key from the workers whenever the keys slice lets go of its handle. The slice is
// cleared by plain actions (sessionEnded from logout, a failed session check or a 401 'Session
// expired'; key generation; restore; a crypto error), which cannot run side effects themselves, so
// a listener, added to the store by the unlock (keyThunks.ts), compares the handle before and after
// each action and releases the one that was dropped.

import type { UnknownAction } from '@reduxjs/toolkit';
import type { RootState } from '../../app/rootReducer.ts';
import { keyOperations } from './keyOperations.ts';
import { selectPrivateKeyHandleId } from './keysSlice.ts';

export const privateKeyReleaseListener = {
  predicate: (_action: UnknownAction, current: RootState, previous: RootState): boolean => {
    const held = selectPrivateKeyHandleId(previous);
    return held !== null && held !== selectPrivateKeyHandleId(current);
  },
  effect: async (_action: UnknownAction, api: { getOriginalState: () => RootState }): Promise<void> => {
    const dropped = selectPrivateKeyHandleId(api.getOriginalState());
    if (dropped) await releaseQuietly(dropped);
  },
};

async function releaseQuietly(handleId: string): Promise<void> {
  try {
    await (await keyOperations()).releasePrivateKey(handleId);
  } catch (error) {
    // A worker that died took the key with it; nothing else holds it. No key material in the log.
    console.warn('Releasing the private key handle failed', error instanceof Error ? error.name : typeof error);
  }
}
