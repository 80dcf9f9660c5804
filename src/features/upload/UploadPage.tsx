import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import { ShieldIcon } from '../../app/icons.tsx';
import { useAppSelector } from '../../app/hooks.ts';
import { CodeGate } from './CodeGate.tsx';
import { EmailGate } from './EmailGate.tsx';
import { pageMessages } from './messages.ts';
import { PasswordGate } from './PasswordGate.tsx';
import { UploadWorkspace } from './UploadWorkspace.tsx';
import { isUploadRunning, UploadStep } from './uploadSteps.ts';
import { selectUploadStepState } from './uploadStepSlice.ts';
import { useBeforeUnloadWarning } from './useBeforeUnloadWarning.ts';
import { useUploadController } from './useUploadController.ts';
import { useUploadLink } from './useUploadLink.ts';
import { useUploadNotifier } from './useUploadNotifier.ts';

/**
 * The public upload page (/upload/{link_token}): the link's gates, then files and folders are
 * hashed and encrypted in this browser for the folder owner and sent. How it works:
 * docs/upload.md.
 */
export function UploadPage({ linkToken }: { linkToken: string | null }) {
  const intl = useIntl();
  useUploadLink(linkToken);
  const notifier = useUploadNotifier();
  const controller = useUploadController(notifier);
  const state = useAppSelector(selectUploadStepState);
  useBeforeUnloadWarning(isUploadRunning(state.step));
  const { step, link } = state;

  return (
    <Paper variant="outlined" sx={{ maxWidth: 760, mx: 'auto', p: { xs: 3, sm: 5 } }}>
      <Typography variant="h1" sx={{ mb: 1, overflowWrap: 'break-word', hyphens: 'auto' }}>
        {link ? intl.formatMessage(pageMessages.titleForLink, { title: link.title }) : intl.formatMessage(pageMessages.title)}
      </Typography>
      {link?.description && (
        <Typography sx={{ mb: 1.5, whiteSpace: 'pre-line' }} data-testid="folder-description">
          {link.description}
        </Typography>
      )}
      <Typography color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 4 }}>
        <ShieldIcon fontSize="small" color="secondary" />
        {intl.formatMessage(pageMessages.encrypted)}
      </Typography>
      {step === UploadStep.loading && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
          <CircularProgress size={22} aria-hidden />
          <Typography color="text.secondary">{intl.formatMessage(pageMessages.loading)}</Typography>
        </Box>
      )}
      {step === UploadStep.fatal && (
        <Alert severity="error" role="alert">
          {state.fatalMessage}
        </Alert>
      )}
      {step === UploadStep.password && state.linkToken && <PasswordGate linkToken={state.linkToken} notifier={notifier} />}
      {step === UploadStep.email && state.linkToken && (
        <EmailGate
          linkToken={state.linkToken}
          hasAllowedEmailsList={link?.hasAllowedEmailsList ?? false}
          initialEmail={state.email}
          notifier={notifier}
        />
      )}
      {step === UploadStep.code && state.linkToken && state.email && <CodeGate linkToken={state.linkToken} email={state.email} notifier={notifier} />}
      {step >= UploadStep.ready && step !== UploadStep.fatal && <UploadWorkspace controller={controller} />}
    </Paper>
  );
}
