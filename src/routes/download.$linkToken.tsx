import { createRoute } from '@tanstack/react-router';
import { DownloadPage } from '../features/download/DownloadPage.tsx';
import { Route as rootRoute } from './__root.tsx';
import { parseLinkToken } from './routeParams.ts';

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'download/$linkToken',
  params: {
    parse: ({ linkToken }) => ({ linkToken: parseLinkToken(linkToken) }),
    stringify: ({ linkToken }) => ({ linkToken: linkToken ?? '' }),
  },
  component: function DownloadRoute() {
    const { linkToken } = Route.useParams();
    return <DownloadPage linkToken={linkToken} />;
  },
});
