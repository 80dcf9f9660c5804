import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import type { FieldErrorLink } from '../../app/layout/fieldError.ts';
import { sanitizeCodeInput } from './loginResponse.ts';

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
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }

  return (
    <Stack component="form" spacing={2.5} noValidate onSubmit={handleSubmit} aria-label="Verify code">
      <Typography color="text.secondary">
        Signing in as <strong>{props.username}</strong>. Enter the 6-digit code your authenticator app shows.
      </Typography>
      <TextField
        label="Authentication Code"
        name="code"
        autoFocus
        autoComplete="one-time-code"
        placeholder="123456"
        value={props.code}
        onChange={(event) => props.onCodeChange(sanitizeCodeInput(event.target.value))}
        slotProps={{
          htmlInput: { required: true, ...props.errorInputProps, inputMode: 'numeric', pattern: '[0-9]{6}', maxLength: 6, style: { letterSpacing: '0.3em', fontSize: '1.25rem' } },
        }}
      />
      <Button type="submit" variant="contained" size="large" disabled={props.busy}>
        {props.busy ? 'Verifying...' : 'Verify Code'}
      </Button>
      <Link component="button" type="button" variant="body2" onClick={props.onBackToPassword} sx={{ alignSelf: 'center' }}>
        Enter password instead?
      </Link>
    </Stack>
  );
}
