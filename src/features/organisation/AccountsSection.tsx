// The accounts of the organisation, with the disable confirmation and the note on what a disabled
// account's folders and links do.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import type { OrgAccount } from '../../../contract/organisation.ts';
import { useDisableAccountMutation, useEnableAccountMutation, useListAccountsQuery } from '../../api/orgApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { MEMBERS_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { useOrgRecoveryStatusQuery } from '../../api/orgRecoveryApi.ts';
import { AccountCard } from './AccountCard.tsx';
import { RestoreAccessDialog } from './RestoreAccessDialog.tsx';
import { DialogChoice } from '../../app/forms/index.ts';

export function AccountsSection() {
  const me = useAppSelector(selectCurrentUser);
  const notify = useNotifier();
  const accounts = useListAccountsQuery();
  const [disable, disabling] = useDisableAccountMutation();
  const [enable, enabling] = useEnableAccountMutation();
  const [confirming, setConfirming] = useState<OrgAccount | null>(null);
  const [restoring, setRestoring] = useState<OrgAccount | null>(null);
  // Polled: a member's new device may ask for approval while the page is open.
  const recovery = useOrgRecoveryStatusQuery(undefined, { pollingInterval: 5_000 }).data;
  const recoveryOf = (id: number) => {
    if (!recovery?.key) return undefined;
    const found = recovery.members.find((member) => member.id === id);
    return { hasCopy: found?.has_copy ?? false, pendingApprovals: found?.pending_approvals ?? 0 };
  };
  const titleId = useId();
  const textId = useId();
  const busy = disabling.isLoading || enabling.isLoading;

  async function confirmDisable() {
    if (!confirming) return;
    try {
      const account = await disable(confirming.id).unwrap();
      notify.success(T.disabledNotice(account.username));
      setConfirming(null);
    } catch (cause) {
      notify.error(cause);
      setConfirming(null);
    }
  }

  async function handleEnable(account: OrgAccount) {
    try {
      await enable(account.id).unwrap();
      notify.success(T.enabledNotice(account.username));
    } catch (cause) {
      notify.error(cause);
    }
  }

  return (
    <SettingsSection title={T.accountsTitle} description={T.disabledLinksNote}>
      {accounts.isLoading && <LoadingMessage text={T.accountsLoading} />}
      {accounts.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void accounts.refetch()}>{T.retry}</Button>}>
          {T.loadFailed}
        </Alert>
      )}
      {accounts.data && (
        <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0 }}>
          {accounts.data.accounts.map((account) => (
            <AccountCard
              key={account.id}
              account={account}
              isSelf={account.id === me?.id}
              busy={busy}
              onDisable={setConfirming}
              onEnable={(target) => void handleEnable(target)}
              recovery={recoveryOf(account.id)}
              onRestore={setRestoring}
            />
          ))}
        </Stack>
      )}
      <Dialog open={confirming !== null} onClose={busy ? undefined : () => setConfirming(null)} aria-labelledby={titleId} aria-describedby={textId} maxWidth="sm">
        <DialogTitle id={titleId}>{confirming ? T.disableTitle(confirming.username) : ''}</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>{T.disableBody}</DialogContentText>
        </DialogContent>
        <DialogChoice dismissLabel={T.cancel} onDismiss={() => setConfirming(null)} confirmLabel={T.disable} onConfirm={() => void confirmDisable()} confirmColor="error" busy={busy} />
      </Dialog>
      {restoring && <RestoreAccessDialog account={restoring} onClose={() => setRestoring(null)} />}
    </SettingsSection>
  );
}
