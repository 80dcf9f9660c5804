import { createRoute } from '@tanstack/react-router';
import { ProfilePage } from '../features/profile/ProfilePage.tsx';
import { Route as authenticatedRoute } from './_authenticated.tsx';

export const Route = createRoute({
  getParentRoute: () => authenticatedRoute,
  path: 'profile',
  component: ProfilePage,
});
