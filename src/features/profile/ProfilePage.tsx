import Stack from '@mui/material/Stack';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { EncryptionKeySection } from '../keys/index.ts';
import { PasskeySection } from '../passkeys/index.ts';
import { ChangePasswordSection } from './ChangePasswordSection.tsx';
import { ProfileInfoSection } from './ProfileInfoSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { WebhookSection } from './WebhookSection.tsx';

export function ProfilePage() {
  return (
    <Stack sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader
        title="My Profile & Settings"
        subtitle="Your account details, sign-in security and encryption keys."
        back={<BackToDashboardLink />}
      />
      <Stack spacing={3}>
        <ProfileInfoSection />
        <ChangePasswordSection />
        <TwoFactorSection />
        <PasskeySection />
        <EncryptionKeySection />
        <WebhookSection />
      </Stack>
    </Stack>
  );
}
