// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeApi, type FakeHandler } from '../../app/testing/fakeApi.ts';
import { renderAppAt, signedOutState, testUser } from '../../app/testing/renderWithProviders.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

function withApi(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  restore = api.restore;
  return api;
}

function typeInto(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

// The inline error (inside <main>); the notification is a second alert outside it.
function findInlineAlert() {
  return within(screen.getByRole('main')).findByRole('alert');
}

function queryInlineAlert() {
  return within(screen.getByRole('main')).queryByRole('alert');
}

async function openLogin() {
  const rendered = renderAppAt('/login', { preloadedState: signedOutState() });
  await screen.findByRole('heading', { name: 'Admin Login' });
  return rendered;
}

describe('Login screen (spec sections 2, 4, 5)', () => {
  it('a user without 2FA goes straight to /dashboard; the button reads Checking... while waiting', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const api = withApi({ 'POST /api/auth/token': () => new Promise((resolve) => (answer = resolve)) });
    const { router } = await openLogin();

    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Checking...' })).toBeTruthy();

    answer({ status: 200, body: { user: testUser } });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(Object.fromEntries(new URLSearchParams(api.requests[0]?.body))).toEqual({ username: 'alice', password: 'correct-horse-1' });
  });

  it("'OTP code required' leads to the code step, which shows the username and completes the login", async () => {
    const api = withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { user: { ...testUser, is_2fa_enabled: true } } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByLabelText('Authentication Code')).toBeTruthy();
    expect(screen.getByText('alice')).toBeTruthy();
    typeInto('Authentication Code', '12x3456');
    expect((screen.getByLabelText('Authentication Code') as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeTruthy();
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ username: 'alice', code: '123456' });
  });

  it("'Enter password instead?' returns to step one and clears password, code and error", async () => {
    withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 401, body: { detail: 'Invalid authentication code' } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await findInlineAlert()).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Enter password instead?' }));
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('alice');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(queryInlineAlert()).toBeNull();
  });

  it('a wrong password shows the mapped message inline and as a notification', async () => {
    withApi({ 'POST /api/auth/token': () => ({ status: 401, body: { detail: 'Incorrect username or password' } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.getAllByText('Incorrect username or password.')).toHaveLength(2));
    expect((await findInlineAlert()).textContent).toContain('Incorrect username or password.');
  });

  it('an unexpected response shape is an error with the exact text', async () => {
    withApi({ 'POST /api/auth/token': () => ({ status: 200, body: { ok: true } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain('Login failed: Unexpected server response structure.');
  });

  it('after the code step only a user is accepted', async () => {
    withApi({
      'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
      'POST /api/auth/token/2fa': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }),
    });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect((await findInlineAlert()).textContent).toContain('Login failed: Invalid response after OTP submission.');
  });

  it('username and password are required; nothing is sent without them', async () => {
    const api = withApi({});
    await openLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await findInlineAlert()).textContent).toContain('Please enter your username and password.');
    expect(api.requests).toHaveLength(0);
  });

  it('the code must be exactly 6 digits before it is sent', async () => {
    const api = withApi({ 'POST /api/auth/token': () => ({ status: 200, body: { message: 'OTP code required', username: 'alice' } }) });
    await openLogin();
    typeInto('Username', 'alice');
    typeInto('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('Authentication Code');
    typeInto('Authentication Code', '123');
    fireEvent.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect((await findInlineAlert()).textContent).toContain('6-digit code');
    expect(api.requests).toHaveLength(1);
  });
});
