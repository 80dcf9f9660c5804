import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as rootRoute } from './__root.tsx';
import { parseLinkToken } from './routeParams.ts';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited, so other screens do not carry it. */
const InvitationPage = lazyRouteComponent(() => import('../features/organisation/InvitationPage.tsx'), 'InvitationPage');

// No account needed: the invitation's token is the capability (the server keeps only its hash).
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'invite/$token',
  params: {
    parse: ({ token }) => ({ token: parseLinkToken(token) }),
    stringify: ({ token }) => ({ token: token ?? '' }),
  },
  component: followsLanguage(function InviteRoute() {
    const { token } = Route.useParams();
    return <InvitationPage token={token} />;
  }),
});
