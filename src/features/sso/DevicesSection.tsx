// The profile's devices of an account without a password (docs/api.md "Single sign-on"): the
// trusted devices (remove one: its copy of the key is deleted, so it cannot unlock any more) and
// the requests of new devices waiting for approval, polled while the profile is open. The words
// of a request are computed here from the key the server handed over, so a key the server
// swapped shows other words than the new device does.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { PendingApproval } from '../../../contract/sso.ts';
import { isCryptoError } from '../../../workers/index.ts';
import { describeApiError } from '../../api/errors.ts';
import { ssoApi, useListTrustedDevicesQuery, usePendingApprovalsQuery, useRemoveTrustedDeviceMutation } from '../../api/ssoApi.ts';
import type { User } from '../../api/types.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { CRYPTO_ERROR_TEXTS, SSO_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { OrgRecoveryNotice } from './OrgRecoveryNotice.tsx';
import { approveRequest, readDevice } from './ssoFlows.ts';

const APPROVALS_POLL_MS = 3_000;

export function DevicesSection() {
  const user = useAppSelector(selectCurrentUser);
  if (!user || user.has_password) return null;
  return <Devices user={user} />;
}

function Devices({ user }: { user: User }) {
  const devices = useListTrustedDevicesQuery().data?.devices ?? [];
  const approvals = usePendingApprovalsQuery(undefined, { pollingInterval: APPROVALS_POLL_MS }).data?.approvals ?? [];
  const [remove] = useRemoveTrustedDeviceMutation();
  const notify = useNotifier();
  const [thisDeviceId, setThisDeviceId] = useState<string | null>(null);

  useEffect(() => {
    // Storage this browser will not open (a private window) only means no row is marked "this device".
    readDevice(user.id).then(
      (device) => setThisDeviceId(device?.id ?? null),
      () => setThisDeviceId(null),
    );
  }, [user.id, devices.length]);

  async function removeDevice(id: string) {
    try {
      await remove({ id }).unwrap();
      notify.success(T.deviceRemoved);
    } catch (error) {
      notify.error(describeApiError(error).message);
    }
  }

  return (
    <SettingsSection title={T.devicesTitle} description={T.devicesIntro}>
      <Stack spacing={2}>
        <OrgRecoveryNotice showStored />
        {approvals.length > 0 && (
          <Stack spacing={1}>
            <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
              {T.approvalsTitle}
            </Typography>
            {approvals.map((approval) => (
              <ApprovalRequest key={approval.id} user={user} approval={approval} />
            ))}
          </Stack>
        )}
        {devices.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {T.noDevices}
          </Typography>
        ) : (
          <List disablePadding aria-label={T.devicesTitle}>
            {devices.map((device) => (
              <ListItem key={device.id} disableGutters sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, justifyContent: 'space-between' }}>
                <div>
                  <Typography>{device.id === thisDeviceId ? T.thisDeviceNamed(device.name) : device.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {T.deviceUsage(formatDateTime(device.created_at))}
                  </Typography>
                </div>
                <Button variant="outlined" color="error" size="small" onClick={() => void removeDevice(device.id)}>
                  {T.removeDevice(device.name)}
                </Button>
              </ListItem>
            ))}
          </List>
        )}
      </Stack>
    </SettingsSection>
  );
}

function ApprovalRequest({ user, approval }: { user: User; approval: PendingApproval }) {
  const dispatch = useAppDispatch();
  const pool = useCryptoPool();
  const notify = useNotifier();
  const [phrase, setPhrase] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void pool()
      .approvalPhrase(approval.requester_spki)
      .then(setPhrase, () => setPhrase(null));
  }, [pool, approval.requester_spki]);

  async function approve() {
    setBusy(true);
    setError(null);
    try {
      await approveRequest({ dispatch, pool }, user, approval);
      notify.success(T.approved);
    } catch (cause) {
      // NotTrustedHereError carries its own text (describeApiError reads it).
      setError(isCryptoError(cause) ? T.failed(CRYPTO_ERROR_TEXTS[cause.code]) : describeApiError(cause).message);
    } finally {
      setBusy(false);
    }
  }

  async function decline() {
    await dispatch(ssoApi.endpoints.removeApproval.initiate({ id: approval.id })).unwrap().catch(() => undefined);
  }

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1}>
        <Typography>{T.approvalRequest(approval.name)}</Typography>
        <Typography data-testid="approval-request-phrase" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
          {phrase ?? T.computingPhrase}
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" disabled={busy || phrase === null} onClick={() => void approve()}>
            {T.approve}
          </Button>
          <Button variant="outlined" disabled={busy} onClick={() => void decline()}>
            {T.decline}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
