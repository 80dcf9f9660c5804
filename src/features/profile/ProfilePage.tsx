import Stack from '@mui/material/Stack';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { EncryptionKeySection } from '../keys/index.ts';
import { PasskeySection } from '../passkeys/index.ts';
import { DevicesSection } from '../sso/index.ts';
import { ChangePasswordSection } from './ChangePasswordSection.tsx';
import { PROFILE_MESSAGES } from './messages.ts';
import { ProfileInfoSection } from './ProfileInfoSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { WebhookSection } from './WebhookSection.tsx';

export function ProfilePage() {
  const intl = useIntl();
  // An account made by single sign-on has no password: nothing to change, and its key is kept by
  // its devices (DevicesSection) instead of under a password. Its second factor is the provider's.
  // Its passkeys confirm with a passkey or a fresh sign-in at the provider, and unlock its keys.
  const hasPassword = useAppSelector(selectCurrentUser)?.has_password ?? true;
  return (
    <Stack sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader
        title={intl.formatMessage(PROFILE_MESSAGES.pageTitle)}
        subtitle={intl.formatMessage(PROFILE_MESSAGES.pageSubtitle)}
        back={<BackToDashboardLink />}
      />
      <Stack spacing={3}>
        <ProfileInfoSection />
        {hasPassword && <ChangePasswordSection />}
        {hasPassword && <TwoFactorSection />}
        <PasskeySection />
        <DevicesSection />
        {hasPassword && <EncryptionKeySection />}
        <WebhookSection />
      </Stack>
    </Stack>
  );
}
