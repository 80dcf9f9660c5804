// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '../app/store.ts';
import { installFakeApi } from '../app/testing/fakeApi.ts';
import { authApi } from './authApi.ts';

const alice = { id: 1, username: 'alice', email: null, is_2fa_enabled: false, public_key_spki: null, org_role: 'admin' as const, language: null, has_password: true };
const SECRET = 'c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IHNlY3I=';

afterEach(() => {
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('base API', () => {
  it('copies the csrftoken cookie into x-csrftoken on POST/PUT, not on GET', async () => {
    document.cookie = 'csrftoken=tok-123; path=/';
    const api = installFakeApi({
      'GET /api/auth/users/me': () => ({ status: 200, body: alice }),
      'PUT /api/auth/users/me': () => ({ status: 200, body: alice }),
      'POST /api/auth/logout': () => ({ status: 200, body: { detail: 'Logged out' } }),
    });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.getCurrentUser.initiate());
    await store.dispatch(authApi.endpoints.updateProfile.initiate({ current_auth_secret: SECRET, email: null }));
    await store.dispatch(authApi.endpoints.logout.initiate());
    api.restore();

    expect(api.requests.map((r) => [r.method, r.headers.get('x-csrftoken')])).toEqual([
      ['GET', null],
      ['PUT', 'tok-123'],
      ['POST', 'tok-123'],
    ]);
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ current_auth_secret: SECRET, email: null });
  });

  it('sends the login as form fields', async () => {
    const api = installFakeApi({ 'POST /api/auth/token': () => ({ status: 200, body: { user: alice } }) });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.login.initiate({ username: 'alice', auth_secret: SECRET }));
    api.restore();

    const [request] = api.requests;
    expect(request?.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ username: 'alice', auth_secret: SECRET });
    expect(store.getState().auth).toMatchObject({ status: 'authenticated', user: alice });
  });

  it('the password itself (an old account, once) goes as form fields too, and does not sign in until the upgrade', async () => {
    const api = installFakeApi({ 'POST /api/auth/token': () => ({ status: 200, body: { user: alice } }) });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.loginWithPassword.initiate({ username: 'alice', password: 'p&ss=word' }));
    api.restore();

    expect(Object.fromEntries(new URLSearchParams(api.requests[0]?.body))).toEqual({ username: 'alice', password: 'p&ss=word' });
    expect(store.getState().auth.status).not.toBe('authenticated');
  });

  it("a 401 'Session expired' on any call ends the session and leaves a notice for the login page", async () => {
    const api = installFakeApi({ 'POST /api/auth/verify-password': () => ({ status: 401, body: { detail: 'Session expired', code: 'SESSION_EXPIRED' } }) });
    const store = makeStore({ auth: { user: alice, status: 'authenticated', notice: null } });
    await store.dispatch(authApi.endpoints.verifyPassword.initiate({ auth_secret: SECRET }));
    api.restore();

    expect(store.getState().auth).toEqual({ user: null, status: 'anonymous', notice: 'Session expired. Please login again.' });
  });

  it("a 401 'Incorrect password' does not end the session", async () => {
    const api = installFakeApi({ 'POST /api/auth/verify-password': () => ({ status: 401, body: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } }) });
    const store = makeStore({ auth: { user: alice, status: 'authenticated', notice: null } });
    const result = await store.dispatch(authApi.endpoints.verifyPassword.initiate({ auth_secret: SECRET }));
    api.restore();

    expect(result.error).toMatchObject({ status: 401, data: { detail: 'Incorrect password', code: 'INCORRECT_PASSWORD' } });
    expect(store.getState().auth.status).toBe('authenticated');
  });
});
