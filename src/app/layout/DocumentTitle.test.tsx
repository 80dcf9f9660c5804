// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeApi } from '../testing/fakeApi.ts';
import { renderAppAt, signedInState, signedOutState } from '../testing/renderWithProviders.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
  document.title = '';
});

describe('document titles (WCAG 2.4.2)', () => {
  it('each screen names the document after itself, the product last', async () => {
    restore = installFakeApi({ 'GET /api/folders/': () => ({ status: 200, body: [] }) }).restore;
    renderAppAt('/dashboard', { preloadedState: signedInState() });
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    expect(document.title).toBe('Admin Dashboard · Sealdrop');
  });

  it('the login screen and the 404 screen have their own titles', async () => {
    renderAppAt('/login', { preloadedState: signedOutState() });
    await screen.findByRole('heading', { name: 'Admin Login' });
    expect(document.title).toBe('Admin Login · Sealdrop');
    cleanup();
    renderAppAt('/no-such-screen', { preloadedState: signedOutState() });
    await screen.findByRole('heading', { name: '404 Not Found' });
    expect(document.title).toBe('404 Not Found · Sealdrop');
  });
});
