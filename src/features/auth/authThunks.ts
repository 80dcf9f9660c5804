import { createAsyncThunk } from '@reduxjs/toolkit';
import { authApi } from '../../api/authApi.ts';
import { baseApi } from '../../api/baseApi.ts';
import { describeApiError, type ApiErrorInfo } from '../../api/errors.ts';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { sessionConfirmed } from './authSlice.ts';

/** App start: the current user decides between authenticated and anonymous. */
export const checkSession = createAsyncThunk('auth/checkSession', async (_: void, { dispatch }) => {
  const request = dispatch(authApi.endpoints.getCurrentUser.initiate(undefined, { subscribe: false, forceRefetch: true }));
  const result = await request;
  if (result.data) {
    dispatch(sessionConfirmed(result.data));
    return true;
  }
  dispatch(sessionEnded({ reason: describeApiError(result.error).code === 'session-expired' ? 'expired' : 'absent' }));
  return false;
});

/**
 * Logout forgets the user and the session's secrets even when the server call fails (the spec's
 * auth state); the failure is returned so the caller can say the server may still hold the session.
 */
export const logout = createAsyncThunk('auth/logout', async (_: void, { dispatch }): Promise<ApiErrorInfo | null> => {
  let failure: ApiErrorInfo | null = null;
  let endSessionUrl: string | null = null;
  try {
    endSessionUrl = (await dispatch(authApi.endpoints.logout.initiate()).unwrap()).end_session_url ?? null;
  } catch (error) {
    failure = describeApiError(error);
  } finally {
    dispatch(sessionEnded({ reason: 'logout' }));
    dispatch(baseApi.util.resetApiState());
  }
  // A session of single sign-on: the provider's session ends too (its sign-out page, which sends
  // the browser back to /login). Only an http(s) address is followed.
  if (endSessionUrl && /^https?:\/\//.test(endSessionUrl)) window.location.assign(endSessionUrl);
  return failure;
});
