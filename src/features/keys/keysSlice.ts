// The session's unlocked private key, as far as the main thread knows it: only the id of a key
// handle inside the crypto worker pool (serialisable, not a secret on its own). The key itself
// never leaves the worker. It is forgotten when the session ends (logout, failed session check,
// 'Session expired'), after a new key pair is generated or a backup restored, and after a crypto
// error during a download; privateKeyRelease.ts then wipes it from the workers too.

import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { rootReducer, type RootState } from '../../app/rootReducer.ts';

export interface KeysState {
  /** Handle id of the unlocked private key in the worker pool; null while locked. */
  privateKeyHandleId: string | null;
}

export type PrivateKeyClearReason = 'generated' | 'restored' | 'crypto-error' | 'locked';

const initialState: KeysState = { privateKeyHandleId: null };

export const keysSlice = createSlice({
  name: 'keys',
  initialState,
  reducers: {
    privateKeyUnlocked(state, action: PayloadAction<{ handleId: string }>) {
      state.privateKeyHandleId = action.payload.handleId;
    },
    privateKeyCleared(state, _action: PayloadAction<{ reason: PrivateKeyClearReason }>) {
      state.privateKeyHandleId = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (state) => {
      state.privateKeyHandleId = null;
    });
  },
});

declare module '../../app/rootReducer.ts' {
  export interface LazyLoadedSlices extends WithSlice<typeof keysSlice> {}
}

const injectedKeysSlice = keysSlice.injectInto(rootReducer);

export const { privateKeyUnlocked, privateKeyCleared } = keysSlice.actions;

/** For the files screen: a download failed with a crypto error, so the cached key may be wrong. */
export const privateKeyCryptoFailed = () => privateKeyCleared({ reason: 'crypto-error' });

const keysState = (state: RootState): KeysState => injectedKeysSlice.selectSlice(state);

export const selectPrivateKeyHandleId = (state: RootState): string | null => keysState(state).privateKeyHandleId;
export const selectPrivateKeyUnlocked = (state: RootState): boolean => keysState(state).privateKeyHandleId !== null;
