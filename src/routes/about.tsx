import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as rootRoute } from './__root.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Public: the build digest matters before signing in as much as after. Loaded on first visit. */
const AboutPage = lazyRouteComponent(() => import('../features/about/AboutPage.tsx'), 'AboutPage');

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'about',
  component: followsLanguage(function AboutRoute() {
    return <AboutPage />;
  }),
});
