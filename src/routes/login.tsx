import { createRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { Route as rootRoute } from './__root.tsx';
import { followsLanguage } from '../i18n/LanguageProvider.tsx';

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  beforeLoad: ({ context }) => {
    if (context.store.getState().auth.status === 'authenticated') throw redirect({ to: '/dashboard', replace: true });
  },
  component: followsLanguage(LoginPage),
});
