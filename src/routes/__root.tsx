import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppLayout } from '../app/layout/AppLayout.tsx';
import { NotFoundPage } from '../app/layout/NotFoundPage.tsx';
import type { AppStore } from '../app/store.ts';

export interface RouterContext {
  store: AppStore;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppLayout,
  notFoundComponent: NotFoundPage,
});
