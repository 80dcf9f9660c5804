import { createRoute } from '@tanstack/react-router';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'dashboard',
  component: DashboardPage,
});
