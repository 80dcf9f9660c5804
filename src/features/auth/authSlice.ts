// Who is signed in. 'checking' until the start-up call to /auth/users/me answers; the route guard
// shows 'Loading authentication status...' meanwhile.

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { authApi } from '../../api/authApi.ts';
import { sessionEnded } from '../../api/sessionEvents.ts';
import type { User } from '../../api/types.ts';
import { t } from '../../i18n/language.ts';
import { userFromLoginResponse } from './loginResponse.ts';
import { AUTH_MESSAGES } from './messages.ts';

export type AuthStatus = 'checking' | 'authenticated' | 'anonymous';

export interface AuthState {
  user: User | null;
  status: AuthStatus;
  /** Shown on the login page after the session ended by itself (not after a logout). */
  notice: string | null;
}

const initialState: AuthState = { user: null, status: 'checking', notice: null };

function signIn(state: AuthState, user: User): void {
  state.user = user;
  state.status = 'authenticated';
  state.notice = null;
}

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    sessionConfirmed(state, action: PayloadAction<User>) {
      signIn(state, action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (state, action) => {
        state.user = null;
        state.status = 'anonymous';
        if (action.payload.reason === 'expired') state.notice = t(AUTH_MESSAGES.sessionExpired);
        if (action.payload.reason === 'logout') state.notice = null;
      })
      .addMatcher(authApi.endpoints.login.matchFulfilled, (state, action) => {
        const user = userFromLoginResponse(action.payload);
        if (user) signIn(state, user);
      })
      .addMatcher(authApi.endpoints.loginWithCode.matchFulfilled, (state, action) => {
        const user = userFromLoginResponse(action.payload);
        if (user && !action.meta.arg.originalArgs.upgradeFollows) signIn(state, user);
      })
      .addMatcher(
        (action) =>
          authApi.endpoints.updateProfile.matchFulfilled(action) ||
          authApi.endpoints.enableTwoFactor.matchFulfilled(action) ||
          authApi.endpoints.disableTwoFactor.matchFulfilled(action),
        (state, action) => {
          if (state.status === 'authenticated') state.user = action.payload;
        },
      );
  },
  selectors: {
    selectCurrentUser: (state) => state.user,
    selectAuthStatus: (state) => state.status,
    selectAuthNotice: (state) => state.notice,
  },
});

export const { sessionConfirmed } = authSlice.actions;
export const { selectCurrentUser, selectAuthStatus, selectAuthNotice } = authSlice.selectors;
