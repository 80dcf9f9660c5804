import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useGetEncryptedKeyQuery } from '../../api/keysApi.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { selectCurrentUser } from '../auth/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { GenerateKeyPairPanel } from './GenerateKeyPairPanel.tsx';
import { KEY_MESSAGES } from '../../lib/userTexts.ts';
import type { GeneratedKeyPairData } from './keyPool.ts';
import { KeyStatusBox, KeyStatusChip } from './KeyStatusBox.tsx';
import { privateKeyCleared, selectPrivateKeyUnlocked } from './keysSlice.ts';
import { hasOrphanedPublicKey, keyStorageStatus, shouldReportStatusError } from './keyStatus.ts';
import { KEYS_UI } from './messages.ts';
import { NewKeyPairDialog } from './NewKeyPairDialog.tsx';
import { PrivateKeyUnlockDialog } from './PrivateKeyUnlockDialog.tsx';
import { RestoreKeyPanel } from './RestoreKeyPanel.tsx';

/**
 * Profile, 'End-to-End Encryption Key' (spec section 2): status box, generate-new-key-pair form,
 * restore-from-backup form, the three-step modal after generation, and the warning when a public
 * key exists without a stored encrypted private key.
 */
export function EncryptionKeySection() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const notify = useNotifier();
  const user = useAppSelector(selectCurrentUser);
  const unlocked = useAppSelector(selectPrivateKeyUnlocked);
  const keyData = useGetEncryptedKeyQuery(undefined, { skip: !user });
  const [pending, setPending] = useState<GeneratedKeyPairData | null>(null);
  const [unlocking, setUnlocking] = useState(false);


  const statusError = keyData.isError ? describeApiError(keyData.error) : null;
  const status = keyStorageStatus({ isLoading: keyData.isLoading || keyData.isFetching, hasData: Boolean(keyData.data), error: statusError });

  useEffect(() => {
    if (statusError && shouldReportStatusError(statusError)) notify.report(statusError);
    // Report each failed check once (keyed on the error), not on every render.
  }, [keyData.error]);

  if (!user) {
    return (
      <SettingsSection title={intl.formatMessage(KEYS_UI.sectionTitle)}>
        <Alert severity="error">{KEY_MESSAGES.profileUnavailable}</Alert>
      </SettingsSection>
    );
  }

  function handleModalClosed() {
    // Spec section 4: closing resets pending key data, refetches the status and clears the session's key.
    setPending(null);
    dispatch(privateKeyCleared({ reason: 'generated' }));
    void keyData.refetch();
  }

  return (
    <SettingsSection
      title={intl.formatMessage(KEYS_UI.sectionTitle)}
      description={intl.formatMessage(KEYS_UI.sectionDescription)}
      aside={<KeyStatusChip status={status} />}
    >
      <Stack spacing={3}>
        <KeyStatusBox status={status} unlocked={unlocked} onUnlock={() => setUnlocking(true)} onLock={() => dispatch(privateKeyCleared({ reason: 'locked' }))} />
        {hasOrphanedPublicKey(user.public_key_spki, status) && (
          <Alert severity="warning" role="alert">
            <AlertTitle>{intl.formatMessage(KEYS_UI.orphanTitle)}</AlertTitle>
            {intl.formatMessage(KEYS_UI.orphanText)}
          </Alert>
        )}
        <Divider />
        <GenerateKeyPairPanel hasExistingKey={Boolean(user.public_key_spki) || status === 'stored'} onGenerated={setPending} />
        <Divider />
        <RestoreKeyPanel username={user.username} onRestored={() => void keyData.refetch()} />
      </Stack>
      <NewKeyPairDialog pending={pending} username={user.username} onClose={handleModalClosed} />
      <PrivateKeyUnlockDialog open={unlocking} onContinue={() => setUnlocking(false)} onCancel={() => setUnlocking(false)} />
    </SettingsSection>
  );
}
