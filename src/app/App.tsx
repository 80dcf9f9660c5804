import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { AppProviders } from './AppProviders.tsx';
import type { CryptoPoolSource } from './cryptoPool.ts';
import type { AppStore } from './store.ts';

/** The app with its providers around a router; the route tree is made in src/routes/router.tsx. */
export function App({ store, router, cryptoPool }: { store: AppStore; router: AnyRouter; cryptoPool: CryptoPoolSource }) {
  return (
    <AppProviders store={store} cryptoPool={cryptoPool}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
