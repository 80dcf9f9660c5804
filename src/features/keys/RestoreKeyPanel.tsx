import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useVerifyPasswordMutation } from '../../api/authApi.ts';
import { useSaveEncryptedKeyMutation, useSetPublicKeyMutation } from '../../api/keysApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { sessionConfirmed } from '../auth/index.ts';
import { useAccountSecret } from '../../app/accountSecrets.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { useFieldErrorLink } from '../../app/layout/fieldError.ts';
import { BACKUP_MIME_TYPE } from './backupFile.ts';
import { isKeyError } from './keyError.ts';
import { KEY_MESSAGES } from '../../lib/userTexts.ts';
import { privateKeyCleared } from './keysSlice.ts';
import { KEYS_UI } from './messages.ts';
import { restoreKeyFromBackup } from './restoreKey.ts';
import { UsernameMismatchDialog } from './UsernameMismatchDialog.tsx';
import { PasswordField } from '../../app/forms/index.ts';

/** Set after a successful restore, for this browser tab (spec section 4, Restore). */
export const KEY_RESTORED_STORAGE_KEY = 'keyRestored';

/** Restore from backup (spec sections 4 and 5): file, current login password, checks, confirmation. */
export function RestoreKeyPanel({ username, onRestored }: { username: string; onRestored(): void }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [verifyPassword] = useVerifyPasswordMutation();
  const accountSecret = useAccountSecret();
  const [setPublicKey] = useSetPublicKeyMutation();
  const [saveEncryptedKey] = useSaveEncryptedKeyMutation();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [backupPassword, setBackupPassword] = useState('');
  const [askBackupPassword, setAskBackupPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const errorLink = useFieldErrorLink(feedback?.severity === 'error');
  const [mismatch, setMismatch] = useState<{ backupUsername: string | null; answer(restore: boolean): void } | undefined>();

  function handleFile(event: ChangeEvent<HTMLInputElement>) {
    setFile(event.target.files?.[0] ?? null);
    setAskBackupPassword(false);
    setBackupPassword('');
    setFeedback(null);
  }

  function reset() {
    setFile(null);
    setPassword('');
    setBackupPassword('');
    setAskBackupPassword(false);
    if (fileInput.current) fileInput.current.value = '';
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (askBackupPassword && !backupPassword) {
      setFeedback({ severity: 'error', message: KEY_MESSAGES.backupPasswordRequired });
      return;
    }
    setFeedback(null);
    setBusy(true);
    try {
      const user = await restoreKeyFromBackup(
        { file, password, username, ...(askBackupPassword ? { backupPassword } : {}) },
        {
          verifyPassword: async (value) => {
            const secret = await accountSecret(value);
            await verifyPassword({ auth_secret: secret.authSecret }).unwrap();
            return secret.kdfParams;
          },
          confirmUsernameMismatch: (backupUsername) =>
            new Promise<boolean>((resolve) =>
              setMismatch({
                backupUsername,
                answer: (restore) => {
                  setMismatch(undefined);
                  resolve(restore);
                },
              }),
            ),
          pool: cryptoPool(),
          setPublicKey: (public_key_spki) => setPublicKey({ public_key_spki }).unwrap(),
          saveEncryptedKey: (data) => saveEncryptedKey(data).unwrap(),
        },
      );
      dispatch(sessionConfirmed(user));
      sessionStorage.setItem(KEY_RESTORED_STORAGE_KEY, 'true');
      dispatch(privateKeyCleared({ reason: 'restored' }));
      reset();
      setFeedback({ severity: 'success', message: KEY_MESSAGES.keyRestored });
      notify.success(KEY_MESSAGES.keyRestored);
      onRestored();
    } catch (failure) {
      if (isKeyError(failure, 'restore-wrong-backup-password')) {
        setAskBackupPassword(true);
        setFeedback({ severity: 'warning', message: failure.message });
        return;
      }
      if (isKeyError(failure, 'cancelled')) {
        setFeedback({ severity: 'info', message: failure.message });
        notify.info(failure.message);
        return;
      }
      setFeedback({ severity: 'error', message: notify.error(failure).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        {intl.formatMessage(KEYS_UI.restoreTitle)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {intl.formatMessage(KEYS_UI.restoreIntro)}
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit} aria-label={intl.formatMessage(KEYS_UI.restoreFormLabel)}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          <input
            ref={fileInput}
            id={inputId}
            type="file"
            accept={`.json,${BACKUP_MIME_TYPE}`}
            aria-label={intl.formatMessage(KEYS_UI.restoreFileLabel)}
            hidden
            onChange={handleFile}
          />
          <Button component="label" htmlFor={inputId} variant="outlined" disabled={busy}>
            {intl.formatMessage(KEYS_UI.restoreChooseFile)}
          </Button>
          <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }} data-testid="backup-file-name">
            {file ? file.name : intl.formatMessage(KEYS_UI.restoreNoFile)}
          </Typography>
        </Box>
        <PasswordField
          label={intl.formatMessage(KEYS_UI.restorePassword)}
          name="restore_password"
          value={password}
          disabled={busy}
          onChange={setPassword}
          inputProps={errorLink.inputProps}
        />
        {askBackupPassword && (
          <PasswordField
            label={intl.formatMessage(KEYS_UI.restoreBackupPassword)}
            name="backup_password"
            autoComplete="off"
            autoFocus
            value={backupPassword}
            disabled={busy}
            helperText={intl.formatMessage(KEYS_UI.restoreBackupPasswordHint)}
            onChange={setBackupPassword}
          />
        )}
        <FormFeedback feedback={feedback} id={errorLink.messageId} />
        <Box>
          <Button type="submit" variant="contained" color="secondary" disabled={busy}>
            {intl.formatMessage(busy ? KEYS_UI.restoring : KEYS_UI.restoreSubmit)}
          </Button>
        </Box>
      </Stack>
      <UsernameMismatchDialog
        backupUsername={mismatch?.backupUsername}
        currentUsername={username}
        onAnswer={(restore) => mismatch?.answer(restore)}
      />
    </Box>
  );
}
