// The team feature's hooks for the files screen: an opener of file keys bound to this folder (the
// folder's keys opened through the team slice on first need), and opening the team for a screen.
import { useCallback } from 'react';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { fileKeyOpener, type FileKeyOpener } from './fileKeys.ts';
import { openFolderTeam } from './openTeam.ts';
import { TeamNotOpenError } from './teamErrors.ts';
import type { OpenedTeam } from './teamSlice.ts';

/** Opens the folder's team with the given key: the verified team, or null for a personal folder. */
export function useOpenTeam(folderId: number): (privateKey: PrivateKeyHandle, fresh?: boolean) => Promise<OpenedTeam | null> {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const cryptoPool = useCryptoPool();
  const user = useAppSelector(selectCurrentUser);
  const userId = user?.id ?? null;
  return useCallback(
    (privateKey, fresh = false) => {
      if (userId === null) return Promise.reject(new TeamNotOpenError());
      return openFolderTeam({ dispatch, getState: store.getState, pool: cryptoPool() }, { folderId, userId, privateKey, fresh });
    },
    [cryptoPool, dispatch, folderId, store, userId],
  );
}

/** For downloads and links: the opener of this folder's file keys with the unlocked private key. */
export function useFileKeyOpener(folderId: number, viewerIsOwner: boolean): (privateKey: PrivateKeyHandle) => FileKeyOpener {
  const cryptoPool = useCryptoPool();
  const openTeam = useOpenTeam(folderId);
  return useCallback(
    (privateKey) =>
      fileKeyOpener(
        cryptoPool(),
        privateKey,
        async () => {
          const opened = await openTeam(privateKey);
          if (opened === null) throw new TeamNotOpenError();
          return opened.folderKeys;
        },
        viewerIsOwner,
      ),
    [cryptoPool, openTeam, viewerIsOwner],
  );
}
