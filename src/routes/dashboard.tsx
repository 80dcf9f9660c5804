import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited (or preloaded on intent), so other screens do not carry it. */
const DashboardPage = lazyRouteComponent(() => import('../features/dashboard/DashboardPage.tsx'), 'DashboardPage');

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'dashboard',
  component: followsLanguage(DashboardPage),
});
