import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Where single sign-on lands: the account's first keys, or unlocking them on this device. */
const SsoPage = lazyRouteComponent(() => import('../features/sso/SsoPage.tsx'), 'SsoPage');

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'sso',
  component: followsLanguage(SsoPage),
});
