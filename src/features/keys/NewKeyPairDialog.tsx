import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSaveEncryptedKeyMutation, useSetPublicKeyMutation } from '../../api/keysApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { sessionConfirmed } from '../auth/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { downloadKeyBackup } from './downloadBackup.ts';
import type { GeneratedKeyPairData } from './keyPool.ts';
import { KeyPairStep } from './KeyPairStep.tsx';
import { KEYS_UI } from './messages.ts';

type StepState = 'idle' | 'busy' | 'done';

// A finished step's button stays disabled but reads as a success, not as greyed-out.
const doneButtonSx = { '&.Mui-disabled': { color: 'success.dark', borderColor: 'success.light', bgcolor: 'rgba(46, 125, 50, 0.06)' } };

/** A step's action: pressed once; busy while it runs; a success once done. `waiting`: an earlier step is not done. */
function StepButton({ state, waiting = false, onClick, labels }: { state: StepState; waiting?: boolean; onClick(): void; labels: Record<StepState, string> }) {
  return (
    <Button
      variant={state === 'done' ? 'outlined' : 'contained'}
      size="small"
      disabled={waiting || state !== 'idle'}
      sx={state === 'done' ? doneButtonSx : undefined}
      onClick={onClick}
    >
      {labels[state]}
    </Button>
  );
}

interface NewKeyPairDialogProps {
  /** The generated pair (private key only wrapped); null when no modal is open. */
  pending: GeneratedKeyPairData | null;
  username: string;
  onClose(): void;
}

/**
 * 'New Key Pair Generated - Actions Required!' (spec section 2): 1 upload the public key, 2 save
 * the encrypted key data, 3 download the backup (required). Closing stays blocked until all three
 * are done. Step 2 follows step 1 because a new public key removes the old pair's stored key data
 * on the server (docs/api.md, Keys).
 */
export function NewKeyPairDialog({ pending, username, onClose }: NewKeyPairDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={pending !== null}
      aria-labelledby={titleId}
      maxWidth="sm"
      // Escape and clicks outside do nothing: the pair would be lost with steps left undone.
      onClose={() => undefined}
    >
      {pending && <NewKeyPairSteps key={pending.publicKeySpki} pending={pending} username={username} titleId={titleId} onClose={onClose} />}
    </Dialog>
  );
}

function NewKeyPairSteps({ pending, username, titleId, onClose }: { pending: GeneratedKeyPairData; username: string; titleId: string; onClose(): void }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const notify = useNotifier();
  const [setPublicKey] = useSetPublicKeyMutation();
  const [saveEncryptedKey] = useSaveEncryptedKeyMutation();
  const [upload, setUpload] = useState<StepState>('idle');
  const [save, setSave] = useState<StepState>('idle');
  const [downloaded, setDownloaded] = useState(false);
  const allDone = upload === 'done' && save === 'done' && downloaded;
  const closeBlocked = allDone ? undefined : intl.formatMessage(KEYS_UI.closeBlocked);

  async function handleUpload() {
    setUpload('busy');
    try {
      dispatch(sessionConfirmed(await setPublicKey({ public_key_spki: pending.publicKeySpki }).unwrap()));
      setUpload('done');
    } catch (cause) {
      notify.error(cause);
      setUpload('idle');
    }
  }

  async function handleSave() {
    setSave('busy');
    try {
      const { encryptedPrivateKey, kdfSalt } = pending;
      dispatch(sessionConfirmed(await saveEncryptedKey({ encryptedPrivateKey, kdfSalt }).unwrap()));
      setSave('done');
    } catch (cause) {
      notify.error(cause);
      setSave('idle');
    }
  }

  function handleDownload() {
    downloadKeyBackup(username, pending);
    setDownloaded(true);
  }

  return (
    <>
      <DialogTitle id={titleId}>{intl.formatMessage(KEYS_UI.newPairTitle)}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2.5 }}>
          {intl.formatMessage(KEYS_UI.newPairWarning)}
        </Alert>
        <Box component="ol" sx={{ display: 'grid', gap: 1.5, m: 0, p: 0 }}>
          <KeyPairStep
            number={1}
            title={intl.formatMessage(KEYS_UI.uploadTitle)}
            done={upload === 'done'}
            action={
              <StepButton
                state={upload}
                onClick={handleUpload}
                labels={{ idle: intl.formatMessage(KEYS_UI.uploadIdle), busy: intl.formatMessage(KEYS_UI.uploadBusy), done: intl.formatMessage(KEYS_UI.uploadDone) }}
              />
            }
          >
            {intl.formatMessage(KEYS_UI.uploadText)}
          </KeyPairStep>
          <KeyPairStep
            number={2}
            title={intl.formatMessage(KEYS_UI.saveTitle)}
            done={save === 'done'}
            action={
              <StepButton
                state={save}
                waiting={upload !== 'done'}
                onClick={handleSave}
                labels={{ idle: intl.formatMessage(KEYS_UI.saveIdle), busy: intl.formatMessage(KEYS_UI.saveBusy), done: intl.formatMessage(KEYS_UI.saveDone) }}
              />
            }
          >
            {intl.formatMessage(KEYS_UI.saveText)}
          </KeyPairStep>
          <KeyPairStep
            number={3}
            title={intl.formatMessage(KEYS_UI.downloadTitle)}
            done={downloaded}
            required
            action={
              <Button variant={downloaded ? 'outlined' : 'contained'} size="small" onClick={handleDownload}>
                {intl.formatMessage(downloaded ? KEYS_UI.downloadAgain : KEYS_UI.download)}
              </Button>
            }
          >
            {intl.formatMessage(KEYS_UI.downloadText)}
          </KeyPairStep>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <span title={closeBlocked}>
          <Button variant="contained" color={allDone ? 'success' : 'primary'} disabled={!allDone} title={closeBlocked} onClick={onClose}>
            {intl.formatMessage(allDone ? KEYS_UI.closeDone : KEYS_UI.close)}
          </Button>
        </span>
      </DialogActions>
    </>
  );
}
