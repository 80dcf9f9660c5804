import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useRequestUploadCodeMutation } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { GateForm, GateSubmitButton, showGateFailure } from './GateForm.tsx';
import { GATE_MESSAGES } from '../../lib/userTexts.ts';
import { isValidEmail } from './gateRules.ts';
import { gateMessages } from './messages.ts';
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
  const intl = useIntl();
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
      label={intl.formatMessage(gateMessages.emailLabel)}
      intro={intl.formatMessage(gateMessages.emailIntro)}
      error={error}
      errorId={errorLink.messageId}
      onSubmit={() => void submit()}
      actions={<GateSubmitButton busy={isLoading} label={intl.formatMessage(gateMessages.sendCode)} busyLabel={intl.formatMessage(gateMessages.sending)} />}
    >
      {hasAllowedEmailsList && <Alert severity="info">{GATE_MESSAGES.allowedListNote}</Alert>}
      <TextField
        label={intl.formatMessage(gateMessages.emailField)}
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
