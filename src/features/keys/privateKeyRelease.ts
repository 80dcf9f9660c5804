// Wipes a private key from the workers once the keys slice lets go of its handle. The slice is
// cleared by plain actions (sessionEnded from logout, a failed session check or a 401 'Session
// expired'; key generation; restore; a crypto error; a newer unlock), which cannot run side
// effects themselves, so the unlock (keyThunks.ts) adds one listener per handle: it holds the
// pool and the handle it unlocked, fires when the slice's handle changes away from it, releases
// it in that pool and removes itself.

import { addListener } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from '../../app/store.ts';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import type { KeyPool } from './keyPool.ts';
import { selectPrivateKey } from './keysSlice.ts';

const held = (state: RootState, handle: PrivateKeyHandle) => selectPrivateKey(state)?.id === handle.id;

export function releaseWhenDropped(pool: Pick<KeyPool, 'releaseKey'>, handle: PrivateKeyHandle) {
  return addListener.withTypes<RootState, AppDispatch>()({
    predicate: (_action, current, previous) => held(previous, handle) && !held(current, handle),
    effect: async (_action, api) => {
      api.unsubscribe();
      try {
        await pool.releaseKey(handle);
      } catch (error) {
        // A worker that died took the key with it; nothing else holds it. No key material in the log.
        console.warn('Releasing the private key handle failed', error instanceof Error ? error.name : typeof error);
      }
    },
  });
}
