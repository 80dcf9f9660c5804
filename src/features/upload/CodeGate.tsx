import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useRequestUploadCodeMutation, useVerifyUploadCodeMutation } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { GateForm, GateSubmitButton } from './GateForm.tsx';
import { codeFailureMessage, isSixDigitCode } from './gateRules.ts';
import { codeResentMessage, errorSendingCodeMessage, GATE_MESSAGES } from '../../lib/userTexts.ts';
import { gateMessages } from './messages.ts';
import type { UploadNotifier } from './uploadController.ts';
import { changeEmailRequested, codeAccepted, codeRejected } from './uploadStepSlice.ts';

/** Spec section 9: the resend confirmation clears after 3 s. */
export const RESEND_NOTICE_MS = 3000;

interface CodeGateProps {
  linkToken: string;
  email: string;
  notifier: UploadNotifier;
}

/** Step 3: the 6-digit code sent to the uploader's address. */
export function CodeGate({ linkToken, email, notifier }: CodeGateProps) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [verifyCode, verifying] = useVerifyUploadCodeMutation();
  const [requestCode, resending] = useRequestUploadCodeMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorLink = useFieldErrorLink(error !== null);
  const [resent, setResent] = useState<string | null>(null);

  useEffect(() => {
    if (resent === null) return;
    const timer = setTimeout(() => setResent(null), RESEND_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [resent]);

  function changeCode(value: string) {
    setCode(value);
    setError(value === '' || /^\d{0,6}$/.test(value) ? null : GATE_MESSAGES.codeFormat);
  }

  async function submit() {
    if (!isSixDigitCode(code)) {
      setError(GATE_MESSAGES.codeFormat);
      return;
    }
    setError(null);
    const result = await verifyCode({ linkToken, uploader_email: email, verification_code: code });
    if ('error' in result) {
      const message = codeFailureMessage(result.error);
      setError(message);
      notifier.show('error', message);
      dispatch(codeRejected());
      return;
    }
    dispatch(codeAccepted());
  }

  async function resend() {
    setResent(null);
    const result = await requestCode({ linkToken, uploader_email: email });
    if ('error' in result) {
      const message = errorSendingCodeMessage(describeApiError(result.error).message);
      setError(message);
      notifier.show('error', message);
      return;
    }
    setError(null);
    setResent(codeResentMessage(email));
  }

  return (
    <GateForm
      label={intl.formatMessage(gateMessages.codeLabel)}
      intro={intl.formatMessage(gateMessages.codeIntro, { email, b: (chunks) => <strong>{chunks}</strong> })}
      error={error}
      errorId={errorLink.messageId}
      onSubmit={() => void submit()}
      notice={
        resent && (
          <Alert severity="success" role="status">
            {resent}
          </Alert>
        )
      }
      actions={
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <GateSubmitButton busy={verifying.isLoading} disabled={code.length !== 6} label={intl.formatMessage(gateMessages.verifyCode)} busyLabel={intl.formatMessage(gateMessages.verifying)} />
          <Button variant="outlined" onClick={() => dispatch(changeEmailRequested())}>
            {intl.formatMessage(gateMessages.changeEmail)}
          </Button>
          <Button onClick={() => void resend()} disabled={resending.isLoading}>
            {intl.formatMessage(resending.isLoading ? gateMessages.sending : gateMessages.resendCode)}
          </Button>
        </Stack>
      }
    >
      <TextField
        label={intl.formatMessage(gateMessages.codeLabel)}
        name="verification_code"
        autoFocus
        autoComplete="one-time-code"
        // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- six example digits, the same in every language
        placeholder="123456"
        value={code}
        error={error !== null}
        onChange={(event) => changeCode(event.target.value.trim())}
        slotProps={{
          htmlInput: { required: true, ...errorLink.inputProps, inputMode: 'numeric', maxLength: 6, style: { letterSpacing: '0.3em', fontSize: '1.25rem' } },
        }}
      />
    </GateForm>
  );
}
