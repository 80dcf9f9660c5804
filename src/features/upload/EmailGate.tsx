import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useRequestUploadCodeMutation } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { GateForm, GateSubmitButton, showGateFailure } from './GateForm.tsx';
import { GATE_MESSAGES } from '../../lib/userTexts.ts';
import { isValidEmail } from './gateRules.ts';
import type { UploadNotifier } from './uploadController.ts';
import { codeSendFailed, codeSent } from './uploadStepSlice.ts';

interface EmailGateProps {
  linkToken: string;
  hasAllowedEmailsList: boolean;
  initialEmail: string | null;
  notifier: UploadNotifier;
}

/** Step 2: the uploader's e-mail address, to which a 6-digit code is sent. */
export function EmailGate({ linkToken, hasAllowedEmailsList, initialEmail, notifier }: EmailGateProps) {
  const dispatch = useAppDispatch();
  const [requestCode, { isLoading }] = useRequestUploadCodeMutation();
  const [email, setEmail] = useState(initialEmail ?? '');
  const [error, setError] = useState<string | null>(null);
  const errorLink = useFieldErrorLink(error !== null);

  async function submit() {
    const address = email.trim();
    if (!isValidEmail(address)) {
      setError(GATE_MESSAGES.invalidEmail);
      return;
    }
    setError(null);
    const result = await requestCode({ linkToken, uploader_email: address });
    if ('error' in result) {
      showGateFailure(result.error, setError, notifier);
      dispatch(codeSendFailed());
      return;
    }
    notifier.show('success', result.data.message);
    dispatch(codeSent({ email: address }));
  }

  return (
    <GateForm
      label="E-mail verification"
      intro="Confirm your e-mail address: we will send you a 6-digit code to enter on the next step."
      error={error}
      errorId={errorLink.messageId}
      onSubmit={() => void submit()}
      actions={<GateSubmitButton busy={isLoading} label="Send Code" busyLabel="Sending..." />}
    >
      {hasAllowedEmailsList && <Alert severity="info">{GATE_MESSAGES.allowedListNote}</Alert>}
      <TextField
        label="Your e-mail address"
        name="uploader_email"
        type="email"
        autoFocus
        autoComplete="email"
        value={email}
        error={error !== null}
        onChange={(event) => setEmail(event.target.value)}
        slotProps={{ htmlInput: { required: true, ...errorLink.inputProps } }}
      />
    </GateForm>
  );
}
