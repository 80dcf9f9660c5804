import { createRoute } from '@tanstack/react-router';
import { UploadPage } from '../features/upload/UploadPage.tsx';
import { Route as rootRoute } from './__root.tsx';
import { parseLinkToken } from './routeParams.ts';

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'upload/$linkToken',
  params: {
    parse: ({ linkToken }) => ({ linkToken: parseLinkToken(linkToken) }),
    stringify: ({ linkToken }) => ({ linkToken: linkToken ?? '' }),
  },
  component: function UploadRoute() {
    const { linkToken } = Route.useParams();
    return <UploadPage linkToken={linkToken} />;
  },
});
