import { useState } from 'react';
import { useVerifyUploadPasswordMutation } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { GateForm, GateSubmitButton, showGateFailure } from './GateForm.tsx';
import { GATE_MESSAGES } from '../../lib/userTexts.ts';
import type { UploadNotifier } from './uploadController.ts';
import { passwordAccepted, passwordRejected } from './uploadStepSlice.ts';
import { PasswordField } from '../../app/forms/index.ts';

/** Step 1: the link password. */
export function PasswordGate({ linkToken, notifier }: { linkToken: string; notifier: UploadNotifier }) {
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
      label="Link password"
      intro="This upload link is protected. Enter the password you were given to continue."
      error={error}
      errorId={errorLink.messageId}
      onSubmit={() => void submit()}
      actions={<GateSubmitButton busy={isLoading} label="Continue" busyLabel="Checking..." />}
    >
      <PasswordField
        label="Link password"
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
