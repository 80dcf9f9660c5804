import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { AppProviders } from './AppProviders.tsx';
import type { AppStore } from './store.ts';

/** The app with its providers around a router; the route tree is made in src/routes/router.tsx. */
export function App({ store, router }: { store: AppStore; router: AnyRouter }) {
  return (
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
