// The code-based route tree: one file per route of the spec's route table in src/routes/.
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { NotFoundPage } from './layout/NotFoundPage.tsx';
import type { AppStore } from './store.ts';
import { Route as rootRoute } from '../routes/__root.tsx';
import { Route as authenticatedRoute } from '../routes/_authenticated.tsx';
import { Route as dashboardRoute } from '../routes/dashboard.tsx';
import { Route as downloadRoute } from '../routes/download.$linkToken.tsx';
import { Route as editFolderRoute } from '../routes/folders.edit.$folderId.tsx';
import { Route as newFolderRoute } from '../routes/folders.new.tsx';
import { Route as viewFolderRoute } from '../routes/folders.view.$folderId.tsx';
import { Route as indexRoute } from '../routes/index.tsx';
import { Route as loginRoute } from '../routes/login.tsx';
import { Route as profileRoute } from '../routes/profile.tsx';
import { Route as uploadRoute } from '../routes/upload.$linkToken.tsx';

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  uploadRoute,
  downloadRoute,
  authenticatedRoute.addChildren([dashboardRoute, profileRoute, newFolderRoute, editFolderRoute, viewFolderRoute]),
]);

export function createAppRouter(store: AppStore, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { store },
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
