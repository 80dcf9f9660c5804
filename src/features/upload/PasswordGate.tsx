import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useVerifyUploadPasswordMutation } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { GateForm, GateSubmitButton, showGateFailure } from './GateForm.tsx';
import { GATE_MESSAGES } from '../../lib/userTexts.ts';
import { gateMessages } from './messages.ts';
import type { UploadNotifier } from './uploadController.ts';
import { passwordAccepted, passwordRejected } from './uploadStepSlice.ts';
import { PasswordField } from '../../app/forms/index.ts';

/** Step 1: the link password. */
export function PasswordGate({ linkToken, notifier }: { linkToken: string; notifier: UploadNotifier }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [verify, { isLoading }] = useVerifyUploadPasswordMutation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorLink = useFieldErrorLink(error !== null);

  async function submit() {
    if (password === '') {
      setError(GATE_MESSAGES.passwordRequired);
      return;
    }
    setError(null);
    const result = await verify({ linkToken, link_password: password });
    if ('error' in result) {
      showGateFailure(result.error, setError, notifier);
      dispatch(passwordRejected());
      return;
    }
    setPassword('');
    dispatch(passwordAccepted());
  }

  return (
    <GateForm
      label={intl.formatMessage(gateMessages.passwordLabel)}
      intro={intl.formatMessage(gateMessages.passwordIntro)}
      error={error}
      errorId={errorLink.messageId}
      onSubmit={() => void submit()}
      actions={<GateSubmitButton busy={isLoading} label={intl.formatMessage(gateMessages.passwordContinue)} busyLabel={intl.formatMessage(gateMessages.passwordChecking)} />}
    >
      <PasswordField
        label={intl.formatMessage(gateMessages.passwordLabel)}
        name="link_password"
        autoFocus
        autoComplete="off"
        value={password}
        error={error !== null}
        onChange={setPassword}
        inputProps={{ required: true, ...errorLink.inputProps }}
      />
    </GateForm>
  );
}
