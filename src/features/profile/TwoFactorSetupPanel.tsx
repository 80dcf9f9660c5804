import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useEnableTwoFactorMutation } from '../../api/authApi.ts';
import type { TwoFactorSetupResponse } from '../../api/types.ts';
import { useNotifier } from '../../app/notifier.ts';
import { sanitizeCodeInput, SIX_DIGITS } from '../auth/index.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { PROFILE_MESSAGES } from './messages.ts';

interface TwoFactorSetupPanelProps {
  setup: TwoFactorSetupResponse;
  onEnabled(): void;
  onCancel(): void;
}

export function TwoFactorSetupPanel({ setup, onEnabled, onCancel }: TwoFactorSetupPanelProps) {
  const intl = useIntl();
  const notify = useNotifier();
  const [enable, { isLoading: verifying }] = useEnableTwoFactorMutation();
  const [code, setCode] = useState('');
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const errorLink = useFieldErrorLink(feedback?.severity === 'error');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return;
    setFeedback(null);
    try {
      await enable({ code }).unwrap();
      onEnabled();
    } catch (cause) {
      setCode('');
      setFeedback({ severity: 'error', message: notify.error(cause).message });
    }
  }

  return (
    <Stack spacing={3}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ p: 1.5, bgcolor: '#fff', border: 1, borderColor: 'divider', borderRadius: 2, alignSelf: { xs: 'center', sm: 'auto' }, lineHeight: 0 }}>
          <QRCodeSVG value={setup.otp_uri} size={160} level="M" title={intl.formatMessage(PROFILE_MESSAGES.setupQrTitle)} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h3" sx={{ mb: 0.75 }}>
            {intl.formatMessage(PROFILE_MESSAGES.setupScanHeading)}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {intl.formatMessage(PROFILE_MESSAGES.setupScanText)}
          </Typography>
          {/* The name sits on a group around the secret: <code> has a role that may not be named (ARIA 1.2). */}
          <Box role="group" aria-label={intl.formatMessage(PROFILE_MESSAGES.setupSecretLabel)}>
            <Box
              component="code"
              sx={{
                display: 'inline-block',
                px: 1.5,
                py: 0.75,
                bgcolor: 'grey.100',
                border: 1,
                borderColor: 'divider',
                borderRadius: 1.5,
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
                fontSize: '0.95rem',
                letterSpacing: '0.08em',
                wordBreak: 'break-all',
                userSelect: 'all',
              }}
            >
              {setup.secret}
            </Box>
          </Box>
        </Box>
      </Stack>
      <Box component="form" noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(PROFILE_MESSAGES.setupVerifyFormLabel)}>
        <Typography variant="h3" sx={{ mb: 0.75 }}>
          {intl.formatMessage(PROFILE_MESSAGES.setupCodeHeading)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {intl.formatMessage(PROFILE_MESSAGES.setupCodeText)}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={intl.formatMessage(PROFILE_MESSAGES.setupCodeLabel)}
            name="code"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(sanitizeCodeInput(event.target.value))}
            sx={{ maxWidth: { sm: 220 } }}
            slotProps={{ htmlInput: { ...errorLink.inputProps, inputMode: 'numeric', pattern: '[0-9]{6}', maxLength: 6, style: { letterSpacing: '0.25em' } } }}
          />
          <Button type="submit" variant="contained" size="large" disabled={verifying || !SIX_DIGITS.test(code)} sx={{ height: 56 }}>
            {intl.formatMessage(verifying ? PROFILE_MESSAGES.setupVerifying : PROFILE_MESSAGES.setupVerify)}
          </Button>
          <Button variant="text" color="inherit" size="large" onClick={onCancel} disabled={verifying} sx={{ height: 56 }}>
            {intl.formatMessage(PROFILE_MESSAGES.setupCancel)}
          </Button>
        </Stack>
      </Box>
      <FormFeedback feedback={feedback} id={errorLink.messageId} />
    </Stack>
  );
}
