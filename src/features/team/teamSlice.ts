// The team folders this page has opened: per folder, the view the worker verified and the handle
// of the folder's epoch keys in the pool (never the keys), or the refusal the worker gave. Opened
// state is bound to the private key that opened it, and is dropped with it: a new session, a
// locked or replaced key starts over (the pool forgets its keys then too).
import { createSlice, type Draft, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { rootReducer, type RootState } from '../../app/rootReducer.ts';
import { privateKeyCleared } from '../keys/index.ts';
import type { FolderKeysHandle, VerifiedTeam } from './teamPool.ts';

export interface OpenedTeam {
  status: 'opened';
  /** The private key handle's id the folder keys were opened with. */
  privateKeyId: string;
  team: VerifiedTeam;
  folderKeys: FolderKeysHandle;
}

export interface RefusedTeam {
  status: 'refused';
  /** The worker's reason code (TEAM_MANIFEST_INVALID's detail), for the console and tests. */
  reason: string;
  /** Member rows the server listed that the signed list does not name, when the worker could tell. */
  unlisted: { userId: number; username: string }[];
}

export type FolderTeamState = OpenedTeam | RefusedTeam;

export interface TeamState {
  folders: Record<number, FolderTeamState>;
}

const initialState: TeamState = { folders: {} };

export const teamSlice = createSlice({
  name: 'team',
  initialState,
  reducers: {
    teamOpened(state, action: PayloadAction<{ folderId: number; privateKeyId: string; team: VerifiedTeam; folderKeys: FolderKeysHandle }>) {
      const { folderId, ...opened } = action.payload;
      // The verified view is stored as the worker made it (read-only; never changed in the store).
      state.folders[folderId] = { status: 'opened', ...opened } as Draft<OpenedTeam>;
    },
    teamRefused(state, action: PayloadAction<{ folderId: number; reason: string; unlisted: { userId: number; username: string }[] }>) {
      const { folderId, reason, unlisted } = action.payload;
      state.folders[folderId] = { status: 'refused', reason, unlisted };
    },
    teamForgotten(state, action: PayloadAction<{ folderId: number }>) {
      delete state.folders[action.payload.folderId];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => initialState);
    builder.addCase(privateKeyCleared, () => initialState);
  },
});

declare module '../../app/rootReducer.ts' {
  export interface LazyLoadedSlices extends WithSlice<typeof teamSlice> {}
}

const injectedTeamSlice = teamSlice.injectInto(rootReducer);

export const { teamOpened, teamRefused, teamForgotten } = teamSlice.actions;

export const selectFolderTeam = (state: RootState, folderId: number): FolderTeamState | undefined => injectedTeamSlice.selectSlice(state).folders[folderId];
