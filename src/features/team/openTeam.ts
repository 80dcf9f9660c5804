// Opening a team folder, outside React: GET /folders/{id}/team, then the worker checks the whole
// signed chain against what this browser saw before and opens the epochs this account holds. Only
// a chain the worker accepted moves the remembered head forward. A personal folder (no versions)
// opens nothing: its files are sealed to the owner's account key.
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { PrivateKeyHandle } from '../../../workers/index.ts';
import { teamApi } from '../../api/teamApi.ts';
import type { RootState } from '../../app/rootReducer.ts';
import { releaseFolderKeysWhenDropped } from './folderKeysRelease.ts';
import { manifestRefusal } from './manifestRefusal.ts';
import { readSeenChain, rememberSeenChain } from './seenChain.ts';
import type { TeamAnswer } from '../../../contract/team-folders.ts';
import { selectFolderTeam, teamOpened, teamRefused, type OpenedTeam } from './teamSlice.ts';
import type { TeamPool } from './teamPool.ts';

type Dispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export interface OpenTeamDeps {
  dispatch: Dispatch;
  getState: () => RootState;
  pool: Pick<TeamPool, 'openTeam' | 'releaseKey'>;
}

export interface OpenTeamRequest {
  folderId: number;
  /** The signed-in account (whose seen chain is remembered). */
  userId: number;
  privateKey: PrivateKeyHandle;
  /** Fetch the list again even when this page opened it with this key before (after TEAM_CHANGED, Retry). */
  fresh?: boolean;
}

/** The server's answer, fetched afresh (never an old cached one: it may have changed meanwhile). */
export async function fetchTeamAnswer(dispatch: Dispatch, folderId: number): Promise<TeamAnswer> {
  return dispatch(teamApi.endpoints.getTeam.initiate(folderId, { forceRefetch: true, subscribe: false })).unwrap();
}

/**
 * The folder's verified team and keys, or null for a personal folder. Rejects with the worker's
 * refusal (recorded in the team slice for the page's warning) or the request's error.
 */
export async function openFolderTeam({ dispatch, getState, pool }: OpenTeamDeps, request: OpenTeamRequest): Promise<OpenedTeam | null> {
  const { folderId, userId, privateKey } = request;
  const known = selectFolderTeam(getState(), folderId);
  if (!request.fresh && known?.status === 'opened' && known.privateKeyId === privateKey.id) return known;
  const answer = await fetchTeamAnswer(dispatch, folderId);
  if (answer.manifests.length === 0) return null;
  try {
    const { team, folderKeys } = await pool.openTeam(privateKey, answer, readSeenChain(userId, folderId), folderId);
    rememberSeenChain(userId, folderId, { firstHash: team.firstHash, seq: team.seq, headHash: team.headHash });
    const opened: OpenedTeam = { status: 'opened', privateKeyId: privateKey.id, team, folderKeys };
    // Released from the workers when the slice drops them (a newer version, a locked key, sign-out).
    dispatch(releaseFolderKeysWhenDropped(pool, folderId, folderKeys));
    dispatch(teamOpened({ folderId, privateKeyId: privateKey.id, team, folderKeys }));
    return opened;
  } catch (error) {
    const refusal = manifestRefusal(error);
    if (refusal) dispatch(teamRefused({ folderId, ...refusal }));
    throw error;
  }
}
