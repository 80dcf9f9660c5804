// The session's unlocked private key, as far as the main thread knows it: the handle the crypto
// worker pool returned when it unlocked the key, kept as it came ({id, kind}: serialisable, not a
// secret on its own; its type's brand says only the pool makes one). The key itself never leaves
// the worker. It is forgotten when the session ends (logout, failed session check,
// 'Session expired'), after a new key pair is generated or a backup restored, and after a crypto
// error during a download; privateKeyRelease.ts then wipes it from the workers too.

import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { rootReducer, type RootState } from '../../app/rootReducer.ts';
import type { PrivateKeyHandle } from '../../../workers/index.ts';

export interface KeysState {
  /** The unlocked private key's handle in the worker pool; null while locked. */
  privateKey: PrivateKeyHandle | null;
}

export type PrivateKeyClearReason = 'generated' | 'restored' | 'crypto-error' | 'locked';

const initialState: KeysState = { privateKey: null };

export const keysSlice = createSlice({
  name: 'keys',
  initialState,
  reducers: {
    privateKeyUnlocked(state, action: PayloadAction<{ handle: PrivateKeyHandle }>) {
      state.privateKey = action.payload.handle;
    },
    privateKeyCleared(state, _action: PayloadAction<{ reason: PrivateKeyClearReason }>) {
      state.privateKey = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, (state) => {
      state.privateKey = null;
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

export const selectPrivateKey = (state: RootState): PrivateKeyHandle | null => keysState(state).privateKey;
export const selectPrivateKeyUnlocked = (state: RootState): boolean => keysState(state).privateKey !== null;
