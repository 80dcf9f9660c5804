// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAppAt, signedInState, signedOutState } from '../app/testing/renderWithProviders.tsx';

afterEach(cleanup);

describe('routes of the spec route table', () => {
  it('a protected route redirects to /login when signed out', async () => {
    const { router } = renderAppAt('/dashboard', { preloadedState: signedOutState() });
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
  });

  it("shows 'Loading authentication status...' while the session is checked, then decides", async () => {
    const { store, router } = renderAppAt('/profile');
    expect(await screen.findByText('Loading authentication status...')).toBeVisible();
    store.dispatch({ type: 'session/ended', payload: { reason: 'absent' } });
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('the index redirects to /dashboard', async () => {
    const { router } = renderAppAt('/', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it("an unknown path shows '404 Not Found' with a 'Go Home' link to /", async () => {
    renderAppAt('/no/such/page', { preloadedState: signedOutState() });
    expect(await screen.findByRole('heading', { name: '404 Not Found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
  });

  it('the dashboard shows the title, the username and the header actions', async () => {
    renderAppAt('/dashboard', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(screen.getByText('alice')).toBeVisible();
    expect(screen.getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/profile');
    expect(screen.getByRole('link', { name: '+ Create New Folder' }).getAttribute('href')).toBe('/folders/new');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
  });

  it('the header carries the product logo', async () => {
    renderAppAt('/login', { preloadedState: signedOutState() });
    const header = await screen.findByRole('banner');
    expect(within(header).getByText('Sealdrop')).toBeVisible();
  });

  it("a non-numeric folder id shows 'Invalid Folder ID'", async () => {
    renderAppAt('/folders/edit/abc', { preloadedState: signedInState() });
    expect(await screen.findByText('Invalid Folder ID')).toBeVisible();
  });

  it('/login while signed in goes to the dashboard', async () => {
    const { router } = renderAppAt('/login', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('public link pages render without a session', async () => {
    renderAppAt('/download/abc123', { preloadedState: signedOutState() });
    expect(await screen.findByRole('heading', { name: 'Secure File Download' })).toBeVisible();
  });
});
