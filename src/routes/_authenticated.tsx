// Pathless layout around every route that needs a signed-in user.
import { createRoute, redirect } from '@tanstack/react-router';
import { RequireAuth } from '../features/auth/RequireAuth.tsx';
import { Route as rootRoute } from './__root.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  id: '_authenticated',
  beforeLoad: ({ context }) => {
    // While the session check runs, RequireAuth shows the loading text and decides afterwards.
    if (context.store.getState().auth.status === 'anonymous') throw redirect({ to: '/login', replace: true });
  },
  component: followsLanguage(RequireAuth),
});
