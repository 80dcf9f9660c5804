import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as rootRoute } from './__root.tsx';
import { parseLinkToken } from './routeParams.ts';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

/** Loaded when the route is first visited (or preloaded on intent), so other screens do not carry it. */
const UploadPage = lazyRouteComponent(() => import('../features/upload/UploadPage.tsx'), 'UploadPage');

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'upload/$linkToken',
  params: {
    parse: ({ linkToken }) => ({ linkToken: parseLinkToken(linkToken) }),
    stringify: ({ linkToken }) => ({ linkToken: linkToken ?? '' }),
  },
  component: followsLanguage(function UploadRoute() {
    const { linkToken } = Route.useParams();
    return <UploadPage linkToken={linkToken} />;
  }),
});
