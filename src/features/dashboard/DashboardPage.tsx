import Button from '@mui/material/Button';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { LogoutIcon, PersonIcon } from '../../app/icons.tsx';
import { ButtonLink } from '../../app/layout/links.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { selectCurrentUser, logout } from '../auth/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { StorageSummary } from '../storage/index.ts';
import { FolderListSection } from './FolderListSection.tsx';
import { MEMBERS_TEXTS } from '../../lib/userTexts.ts';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

export function DashboardPage() {
  const intl = useIntl();
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const notify = useNotifier();
  const [loggingOut, setLoggingOut] = useState(false);

  async function handleLogout() {
    setLoggingOut(true);
    const failure = await dispatch(logout()).unwrap();
    // Signed out locally either way; a failed call may leave the server session alive until it expires.
    if (failure) notify.report(failure);
    await navigate({ to: '/login' });
  }

  // The folders load only once a user is present (spec section 6).
  if (!user) return <LoadingMessage text={intl.formatMessage(messages.checkingAuthentication)} />;

  return (
    <>
      <PageHeader
        title={intl.formatMessage(messages.title)}
        subtitle={<FormattedMessage {...messages.signedInAs} values={{ username: user.username, b: (chunks) => <strong>{chunks}</strong> }} />}
        actions={
          <>
            <ButtonLink to="/profile" variant="outlined" startIcon={<PersonIcon />}>
              {intl.formatMessage(messages.myProfile)}
            </ButtonLink>
            <ButtonLink to="/activity" variant="outlined">
              {intl.formatMessage(messages.activity)}
            </ButtonLink>
            {user.org_role === 'admin' && (
              <ButtonLink to="/members" variant="outlined">
                {MEMBERS_TEXTS.dashboardButton}
              </ButtonLink>
            )}
            <ButtonLink to="/folders/new" variant="contained">
              {intl.formatMessage(messages.createFolder)}
            </ButtonLink>
            <Button variant="text" color="inherit" startIcon={<LogoutIcon />} onClick={handleLogout} disabled={loggingOut}>
              {intl.formatMessage(messages.logout)}
            </Button>
          </>
        }
      />
      <StorageSummary />
      <FolderListSection />
    </>
  );
}
