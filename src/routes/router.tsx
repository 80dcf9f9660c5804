// The code-based route tree: one file per route of the spec's route table in src/routes/.
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { NotFoundPage } from '../app/layout/NotFoundPage.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';
import type { AppStore } from '../app/store.ts';
import { Route as rootRoute } from './__root.tsx';
import { Route as aboutRoute } from './about.tsx';
import { Route as activityRoute } from './activity.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { Route as dashboardRoute } from './dashboard.tsx';
import { Route as downloadRoute } from './download.$linkToken.tsx';
import { Route as editFolderRoute } from './folders.edit.$folderId.tsx';
import { Route as newFolderRoute } from './folders.new.tsx';
import { Route as viewFolderRoute } from './folders.view.$folderId.tsx';
import { Route as indexRoute } from './index.tsx';
import { Route as inviteRoute } from './invite.$token.tsx';
import { Route as loginRoute } from './login.tsx';
import { Route as membersRoute } from './members.tsx';
import { Route as profileRoute } from './profile.tsx';
import { Route as uploadRoute } from './upload.$linkToken.tsx';
import { Route as welcomeRoute } from './welcome.tsx';
import { Route as ssoRoute } from './sso.tsx';

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  uploadRoute,
  downloadRoute,
  aboutRoute,
  inviteRoute,
  authenticatedRoute.addChildren([dashboardRoute, profileRoute, activityRoute, membersRoute, welcomeRoute, ssoRoute, newFolderRoute, editFolderRoute, viewFolderRoute]),
]);

export function createAppRouter(store: AppStore, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context: { store },
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultNotFoundComponent: followsLanguage(NotFoundPage),
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
