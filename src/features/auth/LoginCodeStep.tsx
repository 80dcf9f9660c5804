import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent, ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FieldErrorLink } from '../../app/layout/fieldError.ts';
import { sanitizeCodeInput } from './loginResponse.ts';
import { AUTH_MESSAGES } from './messages.ts';

interface LoginCodeStepProps {
  username: string;
  code: string;
  busy: boolean;
  onCodeChange(value: string): void;
  onSubmit(): void;
  onBackToPassword(): void;
  /** Ties the page's error message to the code field. */
  errorInputProps: FieldErrorLink['inputProps'];
}

export function LoginCodeStep(props: LoginCodeStepProps) {
  const intl = useIntl();
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(AUTH_MESSAGES.codeFormLabel)}>
      <Typography color="text.secondary">
        <FormattedMessage {...AUTH_MESSAGES.codeIntro} values={{ username: props.username, b: (chunks: ReactNode[]) => <strong>{chunks}</strong> }} />
      </Typography>
      <TextField
        label={intl.formatMessage(AUTH_MESSAGES.codeLabel)}
        name="code"
        autoFocus
        autoComplete="one-time-code"
        // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- six digits as an example, the same in every language
        placeholder="123456"
        value={props.code}
        onChange={(event) => props.onCodeChange(sanitizeCodeInput(event.target.value))}
        slotProps={{
          htmlInput: { required: true, ...props.errorInputProps, inputMode: 'numeric', pattern: '[0-9]{6}', maxLength: 6, style: { letterSpacing: '0.3em', fontSize: '1.25rem' } },
        }}
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy}>
        {intl.formatMessage(props.busy ? AUTH_MESSAGES.verifying : AUTH_MESSAGES.verifyCode)}
      </Button>
      <Link component="button" type="button" variant="body2" onClick={props.onBackToPassword} sx={{ alignSelf: 'center' }}>
        {intl.formatMessage(AUTH_MESSAGES.backToPassword)}
      </Link>
    </Stack>
  );
}
