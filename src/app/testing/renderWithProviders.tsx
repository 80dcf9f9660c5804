// Test helpers: render a component, or the whole app at a path, with the real store, theme,
// notifications and router, and the crypto pool the test gives (testCryptoPool.ts).
import { render, type RenderOptions } from '@testing-library/react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import type { User } from '../../api/types.ts';
import { AppProviders } from '../AppProviders.tsx';
import type { CryptoPoolSource } from '../cryptoPool.ts';
import { createAppRouter } from '../../routes/router.tsx';
import { makeStore, type AppStore, type RootState } from '../store.ts';
import { noCryptoPool } from './testCryptoPool.ts';

interface ProviderOptions extends Omit<RenderOptions, 'queries' | 'wrapper'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  cryptoPool?: CryptoPoolSource;
}

// jsdom does not implement scrolling; the router's scroll restoration calls it on every navigation.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;

export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, store = makeStore(preloadedState), cryptoPool = noCryptoPool, ...options }: ProviderOptions = {},
) {
  return {
    store,
    ...render(ui, {
      wrapper: ({ children }) => (
        <AppProviders store={store} cryptoPool={cryptoPool}>
          {children}
        </AppProviders>
      ),
      ...options,
    }),
  };
}

/** The whole app (layout, routes, guards) opened at `path`. */
export function renderAppAt(path: string, options: ProviderOptions = {}) {
  const store = options.store ?? makeStore(options.preloadedState);
  const router = createAppRouter(store, createMemoryHistory({ initialEntries: [path] }));
  return { router, ...renderWithProviders(<RouterProvider router={router} />, { ...options, store }) };
}

export const testUser: User = { id: 1, username: 'alice', email: 'alice@example.com', is_2fa_enabled: false, public_key_spki: null, org_role: 'admin', language: null, has_password: true };

export function signedInState(user: User = testUser): Partial<RootState> {
  return { auth: { user, status: 'authenticated', notice: null } };
}

export function signedOutState(): Partial<RootState> {
  return { auth: { user: null, status: 'anonymous', notice: null } };
}
