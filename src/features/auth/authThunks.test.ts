// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { sessionEnded } from '../../api/sessionEvents.ts';
import { makeStore, rootReducer } from '../../app/store.ts';
import { installFakeApi } from '../../app/testing/fakeApi.ts';
import { testUser } from '../../app/testing/renderWithProviders.tsx';
import { checkSession, logout } from './authThunks.ts';

let restore = () => {};
afterEach(() => restore());

describe('auth state (spec section 4)', () => {
  it('app start: a current user means authenticated', async () => {
    restore = installFakeApi({ 'GET /api/auth/users/me': () => ({ status: 200, body: testUser }) }).restore;
    const store = makeStore();
    expect(store.getState().auth.status).toBe('checking');
    await store.dispatch(checkSession());
    expect(store.getState().auth).toEqual({ user: testUser, status: 'authenticated', notice: null });
  });

  it('app start: failure means not authenticated and ends the session (cached key cleared)', async () => {
    restore = installFakeApi({ 'GET /api/auth/users/me': () => ({ status: 401, body: { detail: 'Not authenticated' } }) }).restore;
    const store = makeStore();
    const result = await store.dispatch(checkSession());
    expect(result.payload).toBe(false);
    expect(store.getState().auth).toEqual({ user: null, status: 'anonymous', notice: null });
  });

  it('logout ends the session even when the call fails, and reports the failure', async () => {
    restore = installFakeApi({ 'POST /api/auth/logout': () => ({ status: 500, body: { detail: 'Internal Server Error' } }) }).restore;
    const store = makeStore({ auth: { user: testUser, status: 'authenticated', notice: null } });
    const failure = await store.dispatch(logout()).unwrap();
    expect(failure?.message).toBe('Server Error: Internal Server Error');
    expect(store.getState().auth).toEqual({ user: null, status: 'anonymous', notice: null });
  });

  it('logout dispatches sessionEnded, the action the keys feature uses to drop the cached private key', async () => {
    restore = installFakeApi({ 'POST /api/auth/logout': () => ({ status: 200, body: { detail: 'Logged out' } }) }).restore;
    const store = makeStore({ auth: { user: testUser, status: 'authenticated', notice: null } });
    const ended: unknown[] = [];
    store.replaceReducer(((state, action) => {
      if (sessionEnded.match(action)) ended.push(action.payload);
      return rootReducer(state, action);
    }) as typeof rootReducer);
    expect(await store.dispatch(logout()).unwrap()).toBeNull();
    expect(ended).toEqual([{ reason: 'logout' }]);
  });
});
