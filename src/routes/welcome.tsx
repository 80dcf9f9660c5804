import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as authenticatedRoute } from './_authenticated.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** The first page of an account made from an invitation: two-factor setup and key pair. */
const AccountSetupPage = lazyRouteComponent(() => import('../features/organisation/AccountSetupPage.tsx'), 'AccountSetupPage');

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'welcome',
  component: followsLanguage(AccountSetupPage),
});
