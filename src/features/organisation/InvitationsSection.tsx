// The invitations an organisation admin sent: status, when, and resend / revoke while not accepted.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Invitation } from '../../../contract/organisation.ts';
import { useListInvitationsQuery, useResendInvitationMutation, useRevokeInvitationMutation } from '../../api/orgApi.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDay as day } from '../../lib/folderDisplay.ts';
import { MEMBERS_TEXTS as T } from '../../lib/userTexts.ts';

const STATUS_COLOR = { pending: 'info', expired: 'warning', accepted: 'success', revoked: 'default' } as const;

/** The invitee as an address book writes them: "Name <address>", or the address alone. */
const invitee = (invitation: Invitation) => (invitation.display_name ? `${invitation.display_name} <${invitation.email}>` : invitation.email);

function invitationMeta(invitation: Invitation): string {
  const role = invitation.org_role === 'admin' ? T.roleAdmin : T.roleMember;
  switch (invitation.status) {
    case 'accepted':
      return T.invitationAcceptedMeta(role, day(invitation.accepted_at ?? invitation.sent_at));
    case 'revoked':
      return T.invitationRevokedMeta(role, day(invitation.revoked_at ?? invitation.sent_at));
    case 'expired':
      return T.invitationExpiredMeta(role, day(invitation.sent_at), day(invitation.expires_at));
    case 'pending':
      return T.invitationOpenMeta(role, day(invitation.sent_at), day(invitation.expires_at));
  }
}

export function InvitationsSection() {
  const notify = useNotifier();
  const invitations = useListInvitationsQuery();
  const [resend, resending] = useResendInvitationMutation();
  const [revoke, revoking] = useRevokeInvitationMutation();
  const busy = resending.isLoading || revoking.isLoading;

  async function run(action: () => Promise<Invitation>, done: (invitation: Invitation) => string) {
    try {
      notify.success(done(await action()));
    } catch (cause) {
      notify.error(cause);
    }
  }

  return (
    <SettingsSection title={T.invitationsTitle}>
      {invitations.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void invitations.refetch()}>{T.retry}</Button>}>
          {T.loadFailed}
        </Alert>
      )}
      {invitations.data?.invitations.length === 0 && <Typography color="text.secondary">{T.noInvitations}</Typography>}
      <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0 }}>
        {invitations.data?.invitations.map((invitation) => {
          const open = invitation.status === 'pending' || invitation.status === 'expired';
          return (
            <Paper key={invitation.id} component="li" variant="outlined" aria-label={invitation.email} sx={{ listStyle: 'none', p: 2 }}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
                <Stack spacing={0.5} sx={{ minWidth: 0 }}>
                  <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{invitee(invitation)}</Typography>
                    <Chip size="small" label={T.invitationStatus[invitation.status]} color={STATUS_COLOR[invitation.status]} variant="outlined" />
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {invitationMeta(invitation)}
                  </Typography>
                </Stack>
                {open && (
                  <Stack direction="row" spacing={1}>
                    <Button
                      variant="outlined"
                      disabled={busy}
                      aria-label={T.resendLabel(invitation.email)}
                      onClick={() => void run(() => resend(invitation.id).unwrap(), (sent) => T.resent(sent.email))}
                    >
                      {T.resend}
                    </Button>
                    <Button
                      variant="text"
                      color="error"
                      disabled={busy}
                      aria-label={T.revokeLabel(invitation.email)}
                      onClick={() => void run(() => revoke(invitation.id).unwrap(), (withdrawn) => T.revoked(withdrawn.email))}
                    >
                      {T.revoke}
                    </Button>
                  </Stack>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </SettingsSection>
  );
}
