// An organisation admin restores the access of a member who lost every device and their recovery
// key (docs/api.md "Organisation recovery"): the member's new device asked for approval and shows
// five words; this dialog shows the words of each waiting request, computed here from the
// requester's key as the server handed it, and only after the admin compared them with the member
// does this browser open the organisation key with the admin's own key, open the member's copy
// (checked against the member's public key) and seal the key to that request.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useState } from 'react';
import type { OrgAccount } from '../../../contract/organisation.ts';
import type { OrgRecoveryMember } from '../../../contract/org-recovery.ts';
import type { PendingApproval } from '../../../contract/sso.ts';
import { useOrgRecoveryMemberQuery, useOrgRecoveryStatusQuery, useRestoreMemberAccessMutation } from '../../api/orgRecoveryApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useNotifier } from '../../app/notifier.ts';
import { ORG_RECOVERY_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { usePrivateKeyUnlock } from '../keys/index.ts';
import { reportFailure } from './OrgRecoverySection.tsx';

const REQUESTS_POLL_MS = 3_000;

export function RestoreAccessDialog({ account, onClose }: { account: OrgAccount; onClose(): void }) {
  const titleId = useId();
  const member = useOrgRecoveryMemberQuery(account.id, { pollingInterval: REQUESTS_POLL_MS });
  const { requestPrivateKey, unlockDialog } = usePrivateKeyUnlock();
  const data = member.data;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{T.restoreTitle(account.username)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {member.isError && <Alert severity="error">{T.loadFailed}</Alert>}
          {data && !data.copy && <Alert severity="warning">{T.noCopy(account.username)}</Alert>}
          {data?.copy && (
            <>
              <Typography>{T.restoreIntro(account.username)}</Typography>
              {data.approvals.length === 0 && <Alert severity="info">{T.noRequests(account.username)}</Alert>}
              {data.approvals.map((approval) => (
                <RestoreRequest key={approval.id} member={data} approval={approval} requestPrivateKey={requestPrivateKey} />
              ))}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
      {unlockDialog}
    </Dialog>
  );
}

interface RestoreRequestProps {
  member: OrgRecoveryMember;
  approval: PendingApproval;
  requestPrivateKey: ReturnType<typeof usePrivateKeyUnlock>['requestPrivateKey'];
}

function RestoreRequest({ member, approval, requestPrivateKey }: RestoreRequestProps) {
  const me = useAppSelector(selectCurrentUser);
  const pool = useCryptoPool();
  const notify = useNotifier();
  const status = useOrgRecoveryStatusQuery().data;
  const [restore, restoring] = useRestoreMemberAccessMutation();
  const [phrase, setPhrase] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void pool()
      .approvalPhrase(approval.requester_spki)
      .then(setPhrase, () => setPhrase(null));
  }, [pool, approval.requester_spki]);

  async function run() {
    const key = status?.key;
    if (!me || !key || !member.copy || !member.public_key_spki) return;
    if (!status.admin_copy) {
      notify.warning(T.youLackKey);
      return;
    }
    setBusy(true);
    try {
      const privateKey = await requestPrivateKey();
      if (!privateKey) return;
      const answer = await pool().restoreMemberAccess(
        privateKey,
        { adminCopy: status.admin_copy, adminUserId: me.id, orgSpki: key.public_key_spki },
        { memberCopy: member.copy, memberUserId: member.id, memberSpki: member.public_key_spki, requestId: approval.id, requesterSpki: approval.requester_spki },
      );
      await restore({ accountId: member.id, approvalId: approval.id, key_id: key.id, approver_spki: answer.approverPublicKeySpki, copy: answer.copy }).unwrap();
      notify.success(T.restored(member.username));
    } catch (error) {
      reportFailure(error, notify);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1}>
        <Typography>{T.requestShows(approval.name)}</Typography>
        <Typography data-testid="restore-request-phrase" sx={{ fontSize: '1.25rem', fontWeight: 600 }}>
          {phrase ?? T.computingPhrase}
        </Typography>
        <div>
          <Button variant="contained" color="warning" disabled={busy || restoring.isLoading || phrase === null} onClick={() => void run()}>
            {T.restoreConfirm}
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
