import { createRoute, redirect } from '@tanstack/react-router';
import { Route as rootRoute } from './__root.tsx';

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/dashboard', replace: true });
  },
});
