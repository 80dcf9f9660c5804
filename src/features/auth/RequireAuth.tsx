import { Navigate, Outlet } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { selectAuthStatus } from './authSlice.ts';
import { AUTH_MESSAGES } from './messages.ts';

/**
 * Renders protected screens only for a signed-in user. Reacts to the auth state changing while a
 * screen is open (session check finishing, logout, session expiring on some call).
 */
export function RequireAuth() {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  if (status === 'checking') return <LoadingMessage text={intl.formatMessage(AUTH_MESSAGES.loadingStatus)} />;
  if (status === 'anonymous') return <Navigate to="/login" replace />;
  return <Outlet />;
}
