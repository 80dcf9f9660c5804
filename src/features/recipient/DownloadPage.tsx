import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import { ShieldIcon } from '../../app/icons.tsx';
import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';
import { pageMessages } from './messages.ts';
import { PasswordStep } from './PasswordStep.tsx';
import { ReadyStep } from './ReadyStep.tsx';
import { useLinkAccess } from './useLinkAccess.ts';

/** The public download page, /download/{link_token} (spec section 2). */
export function DownloadPage({ linkToken }: { linkToken: string | null }) {
  const intl = useIntl();
  const { state, unlock } = useLinkAccess(linkToken);
  return (
    <Paper variant="outlined" sx={{ maxWidth: 720, mx: 'auto', p: { xs: 3, sm: 5 } }}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {DOWNLOAD_PAGE_MESSAGES.title}
      </Typography>
      <Typography color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3.5 }}>
        <ShieldIcon fontSize="small" color="secondary" />
        {intl.formatMessage(pageMessages.decryptedHere)}
      </Typography>
      {state.step === 'loading' && (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography color="text.secondary">{DOWNLOAD_PAGE_MESSAGES.loading}</Typography>
        </Stack>
      )}
      {state.step === 'password' && <PasswordStep busy={state.busy} error={state.error} pinned={state.pin !== null} onUnlock={(password) => void unlock(password)} />}
      {state.step === 'ready' && linkToken !== null && <ReadyStep linkToken={linkToken} files={state.files} keys={state.keys} />}
      {state.step === 'error' && (
        <Alert severity="error" role="alert">
          {intl.formatMessage(pageMessages.error, { message: state.message })}
        </Alert>
      )}
    </Paper>
  );
}
