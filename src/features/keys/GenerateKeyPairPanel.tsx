import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { useVerifyPasswordMutation } from '../../api/authApi.ts';
import { describeApiError } from '../../api/errors.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { generationFailedMessage, KEY_MESSAGES } from '../../lib/userTexts.ts';
import { KeyError, keyOperationFailureText } from './keyError.ts';
import type { GeneratedKeyPairData } from './keyPool.ts';
import { KEYS_UI } from './messages.ts';
import { DialogChoice, PasswordField } from '../../app/forms/index.ts';

type Stage = 'idle' | 'verifying' | 'generating';

const STAGE_LABEL: Record<Stage, MessageDescriptor> = {
  idle: KEYS_UI.generateTitle,
  verifying: KEYS_UI.generateVerifying,
  generating: KEYS_UI.generateGenerating,
};

/**
 * Key generation (spec sections 4 and 5): password required, a confirmation that old files need
 * the old backup, then password verification (its authentication secret), generation and
 * encryption with the login password in the worker pool; the caller then opens the three-step modal.
 */
export function GenerateKeyPairPanel({ hasExistingKey, onGenerated }: { hasExistingKey: boolean; onGenerated(pair: GeneratedKeyPairData): void }) {
  const intl = useIntl();
  const notify = useNotifier();
  const cryptoPool = useCryptoPool();
  const confirmTitleId = useId();
  const [verifyPassword] = useVerifyPasswordMutation();
  const accountSecret = useAccountSecret();
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [stage, setStage] = useState<Stage>('idle');
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const errorLink = useFieldErrorLink(feedback?.severity === 'error', { withHelperText: true });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setFeedback({ severity: 'error', message: KEY_MESSAGES.generatePasswordRequired });
      return;
    }
    setFeedback(null);
    setConfirming(true);
  }

  function handleCancel() {
    setConfirming(false);
    setFeedback({ severity: 'info', message: KEY_MESSAGES.generationCancelled });
    notify.info(KEY_MESSAGES.generationCancelled);
  }

  async function handleConfirm() {
    setConfirming(false);
    const typed = password;
    setPassword('');
    try {
      setStage('verifying');
      let kdfParams: string;
      try {
        const secret = await accountSecret(typed);
        await verifyPassword({ auth_secret: secret.authSecret }).unwrap();
        kdfParams = secret.kdfParams;
      } catch (cause) {
        throw new KeyError('generation-failed', generationFailedMessage(describeApiError(cause).message));
      }
      setStage('generating');
      let pair: GeneratedKeyPairData;
      try {
        // Wrapped under the account's own block: the login password's derivation opens it.
        const { publicKeySpki, encryptedPrivateKey, kdfSalt } = await cryptoPool().generateWrappedKeyPair(typed, kdfParams);
        pair = { publicKeySpki, encryptedPrivateKey, kdfSalt };
      } catch (cause) {
        throw new KeyError('generation-failed', generationFailedMessage(keyOperationFailureText(cause, (error) => describeApiError(error).message)));
      }
      onGenerated(pair);
    } catch (failure) {
      setFeedback({ severity: 'error', message: notify.error(failure).message });
    } finally {
      setStage('idle');
    }
  }

  const busy = stage !== 'idle';

  return (
    <Box>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        {intl.formatMessage(KEYS_UI.generateTitle)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {intl.formatMessage(KEYS_UI.generateIntro)}
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(KEYS_UI.generateFormLabel)}>
        <PasswordField
          id={errorLink.fieldId}
          label={intl.formatMessage(KEYS_UI.generatePassword)}
          name="generate_password"
          value={password}
          disabled={busy}
          helperText={intl.formatMessage(KEYS_UI.generatePasswordHint)}
          onChange={setPassword}
          inputProps={errorLink.inputProps}
        />
        <FormFeedback feedback={feedback} id={errorLink.messageId} />
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {intl.formatMessage(STAGE_LABEL[stage])}
          </Button>
        </Box>
      </Stack>
      <Dialog open={confirming} onClose={handleCancel} aria-labelledby={confirmTitleId}>
        <DialogTitle id={confirmTitleId}>{intl.formatMessage(KEYS_UI.generateConfirmTitle)}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: hasExistingKey ? 1.5 : 0 }}>
            {intl.formatMessage(KEYS_UI.generateConfirmText)}
          </DialogContentText>
          {hasExistingKey && (
            <DialogContentText sx={{ fontWeight: 600, color: 'warning.dark' }}>
              {intl.formatMessage(KEYS_UI.generateReplaceWarning)}
            </DialogContentText>
          )}
        </DialogContent>
        <DialogChoice dismissLabel={intl.formatMessage(KEYS_UI.cancel)} onDismiss={handleCancel} confirmLabel={intl.formatMessage(KEYS_UI.generateConfirm)} onConfirm={handleConfirm} confirmColor="warning" />
      </Dialog>
    </Box>
  );
}
