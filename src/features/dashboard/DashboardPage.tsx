import Button from '@mui/material/Button';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
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

export function DashboardPage() {
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
  if (!user) return <LoadingMessage text="Checking authentication..." />;

  return (
    <>
      <PageHeader
        title="Admin Dashboard"
        subtitle={
          <>
            Signed in as <strong>{user.username}</strong>
          </>
        }
        actions={
          <>
            <ButtonLink to="/profile" variant="outlined" startIcon={<PersonIcon />}>
              My Profile
            </ButtonLink>
            <ButtonLink to="/activity" variant="outlined">
              Activity
            </ButtonLink>
            {user.org_role === 'admin' && (
              <ButtonLink to="/members" variant="outlined">
                {MEMBERS_TEXTS.dashboardButton}
              </ButtonLink>
            )}
            <ButtonLink to="/folders/new" variant="contained">
              + Create New Folder
            </ButtonLink>
            <Button variant="text" color="inherit" startIcon={<LogoutIcon />} onClick={handleLogout} disabled={loggingOut}>
              Logout
            </Button>
          </>
        }
      />
      <StorageSummary />
      <FolderListSection />
    </>
  );
}
