// Wipes a folder's opened epoch keys from the workers once the team slice lets go of their handle:
// a newer version opened in their place, the private key cleared or locked, the session ended.
// Those are plain actions, so opening adds one listener per handle (as the keys feature does for
// the private key, privateKeyRelease.ts), which releases it in the pool that opened it.
import { addListener } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from '../../app/store.ts';
import type { FolderKeysHandle, TeamPool } from './teamPool.ts';
import { selectFolderTeam } from './teamSlice.ts';

function held(state: RootState, folderId: number, handle: FolderKeysHandle): boolean {
  const team = selectFolderTeam(state, folderId);
  return team?.status === 'opened' && team.folderKeys.id === handle.id;
}

export function releaseFolderKeysWhenDropped(pool: Pick<TeamPool, 'releaseKey'>, folderId: number, handle: FolderKeysHandle) {
  return addListener.withTypes<RootState, AppDispatch>()({
    predicate: (_action, current, previous) => held(previous, folderId, handle) && !held(current, folderId, handle),
    effect: async (_action, api) => {
      api.unsubscribe();
      try {
        await pool.releaseKey(handle);
      } catch (error) {
        // A worker that died took the keys with it. No key material in the log.
        console.warn('Releasing the folder keys failed', error instanceof Error ? error.name : typeof error);
      }
    },
  });
}
