// The first page of an account made from an invitation: the existing two-factor setup and key pair
// screens of the profile, in order, then on to the dashboard. Nothing here is a second
// implementation of either: both sections are the profile's own.
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGetEncryptedKeyQuery } from '../../api/keysApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { ButtonLink } from '../../app/layout/links.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { SETUP_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { EncryptionKeySection } from '../keys/index.ts';
import { TwoFactorSection } from '../profile/index.ts';

export function AccountSetupPage() {
  const user = useAppSelector(selectCurrentUser);
  const keyData = useGetEncryptedKeyQuery(undefined, { skip: !user });
  const done = Boolean(user?.is_2fa_enabled) && Boolean(user?.public_key_spki) && Boolean(keyData.data);
  return (
    <Stack sx={{ maxWidth: 760, mx: 'auto' }} spacing={3}>
      <PageHeader title={T.title} subtitle={T.subtitle} />
      <Typography variant="h2" component="p" sx={{ fontSize: '1.1rem' }}>
        {T.stepTwoFactor}
      </Typography>
      <TwoFactorSection />
      <Typography variant="h2" component="p" sx={{ fontSize: '1.1rem' }}>
        {T.stepKeys}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {T.keysNote}
      </Typography>
      <EncryptionKeySection />
      {!done && <Alert severity="info">{T.remaining}</Alert>}
      <div>
        <ButtonLink to="/dashboard" variant="contained" disabled={!done}>
          {T.continue}
        </ButtonLink>
      </div>
    </Stack>
  );
}
