import { RouterProvider } from '@tanstack/react-router';
import { AppProviders } from './AppProviders.tsx';
import type { AppRouter } from './router.tsx';
import type { AppStore } from './store.ts';

export function App({ store, router }: { store: AppStore; router: AppRouter }) {
  return (
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
