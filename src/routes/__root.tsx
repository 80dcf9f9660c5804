import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppLayout } from '../app/layout/AppLayout.tsx';
import { NotFoundPage } from '../app/layout/NotFoundPage.tsx';
import type { AppStore } from '../app/store.ts';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

export interface RouterContext {
  store: AppStore;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: followsLanguage(AppLayout),
  notFoundComponent: followsLanguage(NotFoundPage),
});
