// Writing a new version of a folder's member list, or sharing it the first time: the worker signs,
// the server stores it only if it still follows the version it was made on (expected_seq; for a
// share, the folder's files as they were). On TEAM_CHANGED the list (or the files) is fetched and
// checked again and the change made once more on the new version; a second TEAM_CHANGED is the
// caller's to show, with Retry.
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { filesApi } from '../../api/filesApi.ts';
import { teamApi } from '../../api/teamApi.ts';
import type { RootState } from '../../app/rootReducer.ts';
import type { OpenedTeam } from './teamSlice.ts';
import type { MemberInput, TeamChange, TeamPool } from './teamPool.ts';

type Dispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export function isTeamChanged(error: unknown): boolean {
  return answeredWith(describeApiError(error), 'TEAM_CHANGED', 409);
}

export interface ChangeDeps {
  dispatch: Dispatch;
  pool: Pick<TeamPool, 'changeTeam'>;
  privateKey: PrivateKeyHandle;
  /** Opens the list afresh (GET team, checked by the worker): after TEAM_CHANGED and after success. */
  reopen(): Promise<OpenedTeam | null>;
}

/** Signs and stores one change on `opened`, once more on the newer version after a TEAM_CHANGED. */
export async function changeTeamWithRetry(deps: ChangeDeps, folderId: number, opened: OpenedTeam, change: TeamChange): Promise<void> {
  let current = opened;
  for (let attempt = 0; ; attempt++) {
    const body = await deps.pool.changeTeam(deps.privateKey, current.folderKeys, current.team, change);
    try {
      await deps.dispatch(teamApi.endpoints.changeTeam.initiate({ folderId, body })).unwrap();
      await deps.reopen();
      return;
    } catch (error) {
      if (attempt > 0 || !isTeamChanged(error)) throw error;
      const fresh = await deps.reopen();
      if (fresh === null) throw error;
      current = fresh;
    }
  }
}

export interface ShareDeps {
  dispatch: Dispatch;
  pool: Pick<TeamPool, 'shareFolder'>;
  privateKey: PrivateKeyHandle;
}

async function folderFileKeys(dispatch: Dispatch, folderId: number): Promise<{ file_id: number; encrypted_key: string }[]> {
  const files = await dispatch(filesApi.endpoints.listFolderFiles.initiate(folderId, { forceRefetch: true, subscribe: false })).unwrap();
  return files.map((file) => ({ file_id: file.id, encrypted_key: file.encrypted_key }));
}

/** Shares a personal folder: every file key re-sealed to epoch 1; the files are read again after a TEAM_CHANGED. */
export async function shareWithRetry(deps: ShareDeps, folderId: number, owner: MemberInput, members: MemberInput[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const files = await folderFileKeys(deps.dispatch, folderId);
    const body = await deps.pool.shareFolder(deps.privateKey, { folderId, owner, members, files });
    try {
      await deps.dispatch(teamApi.endpoints.shareFolder.initiate({ folderId, body })).unwrap();
      return;
    } catch (error) {
      if (attempt > 0 || !isTeamChanged(error)) throw error;
    }
  }
}
