// The organisation recovery policy on the members page (docs/api.md "Organisation recovery"): off
// by default; turning it on (after a confirmation that says admins can then read members' files)
// makes the organisation key in this browser and keeps its private key sealed to this admin's own
// key; an admin who holds it gives it to other admins; turning it off deletes every copy.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { OrgRecoveryStatus } from '../../../contract/org-recovery.ts';
import { isCryptoError } from '../../../workers/index.ts';
import { useDisableOrgRecoveryMutation, useEnableOrgRecoveryMutation, useGrantAdminCopyMutation, useOrgRecoveryStatusQuery } from '../../api/orgRecoveryApi.ts';
import type { User } from '../../api/types.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { DialogChoice } from '../../app/forms/index.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { CRYPTO_ERROR_TEXTS, ORG_RECOVERY_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { usePrivateKeyUnlock } from '../keys/index.ts';
import { useKeyFingerprint } from './keyFingerprint.ts';

export function OrgRecoverySection() {
  const me = useAppSelector(selectCurrentUser);
  const status = useOrgRecoveryStatusQuery();
  const data = status.data;
  return (
    <SettingsSection
      title={T.title}
      aside={data && <Chip size="small" label={data.key ? T.statusOn : T.statusOff} color={data.key ? 'warning' : 'default'} variant="outlined" />}
    >
      {status.isLoading && <LoadingMessage text={T.title} />}
      {status.isError && <Alert severity="error">{T.loadFailed}</Alert>}
      {data && me && (data.key ? <PolicyOn me={me} status={data} /> : <PolicyOff me={me} />)}
    </SettingsSection>
  );
}

function ConfirmDialog(props: { open: boolean; title: string; body: string; confirmLabel: string; busy: boolean; onCancel(): void; onConfirm(): void }) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={props.open} onClose={props.busy ? undefined : props.onCancel} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm">
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{props.body}</DialogContentText>
      </DialogContent>
      <DialogChoice dismissLabel={T.cancel} onDismiss={props.onCancel} confirmLabel={props.confirmLabel} onConfirm={props.onConfirm} confirmColor="warning" busy={props.busy} />
    </Dialog>
  );
}

export function reportFailure(error: unknown, notify: ReturnType<typeof useNotifier>): void {
  if (isCryptoError(error)) notify.warning(T.failed(CRYPTO_ERROR_TEXTS[error.code]));
  else notify.error(error);
}

function PolicyOff({ me }: { me: User }) {
  const pool = useCryptoPool();
  const notify = useNotifier();
  const [enable, enabling] = useEnableOrgRecoveryMutation();
  const [confirming, setConfirming] = useState(false);
  const [making, setMaking] = useState(false);
  const busy = making || enabling.isLoading;

  async function turnOn() {
    if (!me.public_key_spki) return;
    setMaking(true);
    try {
      const made = await pool().createOrgRecoveryKey(me.public_key_spki, me.id);
      await enable({ public_key_spki: made.publicKeySpki, admin_copy: made.adminCopy, wrapped_for_spki: me.public_key_spki }).unwrap();
      notify.success(T.turnedOn);
    } catch (error) {
      reportFailure(error, notify);
    } finally {
      setMaking(false);
      setConfirming(false);
    }
  }

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {T.offBody}
      </Typography>
      {me.public_key_spki ? (
        <div>
          <Button variant="outlined" onClick={() => setConfirming(true)}>
            {T.turnOn}
          </Button>
        </div>
      ) : (
        <Alert severity="info">{T.needsKey}</Alert>
      )}
      <ConfirmDialog open={confirming} title={T.confirmTitle} body={T.confirmBody} confirmLabel={T.confirm} busy={busy} onCancel={() => setConfirming(false)} onConfirm={() => void turnOn()} />
    </Stack>
  );
}

function PolicyOn({ me, status }: { me: User; status: OrgRecoveryStatus }) {
  const key = status.key!;
  const pool = useCryptoPool();
  const notify = useNotifier();
  const fingerprint = useKeyFingerprint(key.public_key_spki);
  const [disable, disabling] = useDisableOrgRecoveryMutation();
  const [grant, granting] = useGrantAdminCopyMutation();
  const { requestPrivateKey, unlockDialog } = usePrivateKeyUnlock();
  const [confirming, setConfirming] = useState(false);

  async function turnOff() {
    try {
      await disable().unwrap();
      notify.success(T.turnedOff);
    } catch (error) {
      notify.error(error);
    } finally {
      setConfirming(false);
    }
  }

  async function giveKey(target: OrgRecoveryStatus['admins'][number]) {
    if (!status.admin_copy || !target.public_key_spki) return;
    try {
      const privateKey = await requestPrivateKey();
      if (!privateKey) return;
      const org = { adminCopy: status.admin_copy, adminUserId: me.id, orgSpki: key.public_key_spki };
      const copy = await pool().sealOrgKeyForAdmin(privateKey, org, { userId: target.id, spki: target.public_key_spki });
      await grant({ accountId: target.id, key_id: key.id, wrapped_for_spki: target.public_key_spki, copy }).unwrap();
      notify.success(T.keyGiven(target.username));
    } catch (error) {
      reportFailure(error, notify);
    }
  }

  return (
    <Stack spacing={2}>
      <Alert severity="warning">{T.onBody(formatDateTime(key.enabled_at), key.enabled_by ?? '')}</Alert>
      <div>
        <Typography variant="caption" color="text.secondary" component="div">
          {T.fingerprintLabel}
        </Typography>
        <Typography variant="body2" component="code" data-testid="org-key-fingerprint" sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
          {fingerprint.kind === 'ready' ? fingerprint.fingerprint : ''}
        </Typography>
      </div>
      {!status.admin_copy && <Alert severity="info">{T.youLackKey}</Alert>}
      <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
        {T.adminsTitle}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {status.admins.map((admin) => (
          <Stack component="li" key={admin.id} direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="body2">{admin.has_copy ? T.holdsKey(admin.username) : T.lacksKey(admin.username)}</Typography>
            {!admin.has_copy && status.admin_copy && admin.public_key_spki && (
              <Button size="small" variant="outlined" disabled={granting.isLoading} onClick={() => void giveKey(admin)}>
                {T.giveKey(admin.username)}
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
      <div>
        <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
          {T.turnOff}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={T.turnOffTitle}
        body={T.turnOffBody}
        confirmLabel={T.turnOffConfirm}
        busy={disabling.isLoading}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void turnOff()}
      />
      {unlockDialog}
    </Stack>
  );
}
