// One account on the members page: name, role, status, 2FA, the key fingerprint computed here,
// dates, folders it owns, and the disable/enable action (never on one's own account).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { OrgAccount } from '../../../contract/organisation.ts';
import { formatDay as day } from '../../lib/folderDisplay.ts';
import { MEMBERS_TEXTS as T, ORG_RECOVERY_TEXTS as R } from '../../lib/userTexts.ts';
import { useKeyFingerprint } from './keyFingerprint.ts';

function Fingerprint({ spki }: { spki: string | null }) {
  const state = useKeyFingerprint(spki);
  if (state.kind === 'none') return <Typography variant="body2" color="text.secondary">{T.noKey}</Typography>;
  if (state.kind === 'failed') return <Typography variant="body2" color="error">{T.fingerprintFailed}</Typography>;
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {T.fingerprintLabel}
      </Typography>
      <Typography variant="body2" component="code" data-testid="key-fingerprint" sx={{ fontFamily: 'monospace', wordBreak: 'break-word', letterSpacing: 0.5 }}>
        {/* eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a mark that the fingerprint is being computed, not a text */}
        {state.kind === 'ready' ? state.fingerprint : '…'}
      </Typography>
    </Box>
  );
}

interface AccountCardProps {
  account: OrgAccount;
  isSelf: boolean;
  busy: boolean;
  onDisable(account: OrgAccount): void;
  onEnable(account: OrgAccount): void;
  /** While the organisation recovery policy is on: whether the account's key is held, and its approval requests waiting. */
  recovery?: { hasCopy: boolean; pendingApprovals: number } | undefined;
  onRestore?(account: OrgAccount): void;
}

export function AccountCard({ account, isSelf, busy, onDisable, onEnable, recovery, onRestore }: AccountCardProps) {
  const name = account.display_name ? `${account.display_name} (${account.username})` : account.username;
  const disabled = account.status === 'disabled';
  const dates = [
    T.joined(day(account.joined_at)),
    account.invited_at ? T.invitedOn(day(account.invited_at)) : null,
    account.disabled_at ? T.disabledOn(day(account.disabled_at)) : null,
    T.folders(account.folder_count),
  ].filter(Boolean);
  return (
    <Paper component="li" variant="outlined" aria-label={account.username} sx={{ listStyle: 'none', p: 2, opacity: disabled ? 0.85 : 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <Stack spacing={1} sx={{ minWidth: 0 }}>
          <Typography variant="h3" component="h3" sx={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            {name}
            {isSelf && (
              <Typography component="span" variant="body2" color="text.secondary">
                {T.youSuffix}
              </Typography>
            )}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Chip size="small" label={account.org_role === 'admin' ? T.roleAdmin : T.roleMember} color={account.org_role === 'admin' ? 'primary' : 'default'} variant="outlined" />
            <Chip size="small" label={disabled ? T.statusDisabled : T.statusActive} color={disabled ? 'error' : 'success'} variant={disabled ? 'filled' : 'outlined'} />
            <Chip size="small" label={account.is_2fa_enabled ? T.twoFactorOn : T.twoFactorOff} variant="outlined" />
            {recovery?.hasCopy && <Chip size="small" label={R.keyHeld} color="warning" variant="outlined" />}
          </Stack>
          {recovery && recovery.pendingApprovals > 0 && (
            <Typography variant="body2" color="warning.main">
              {R.requestsWaiting(recovery.pendingApprovals)}
            </Typography>
          )}
          {account.email && (
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {account.email}
            </Typography>
          )}
          <Fingerprint spki={account.public_key_spki} />
          <Typography variant="body2" color="text.secondary">
            {dates.join(' · ')}
          </Typography>
        </Stack>
        {!isSelf && (
          <Stack direction={{ xs: 'row', sm: 'column' }} spacing={1} useFlexGap sx={{ flexShrink: 0, flexWrap: 'wrap' }}>
            {recovery && recovery.pendingApprovals > 0 && onRestore && (
              <Button variant="contained" color="warning" onClick={() => onRestore(account)} aria-label={R.restoreLabel(account.username)}>
                {R.restore}
              </Button>
            )}
            {disabled ? (
              <Button variant="outlined" onClick={() => onEnable(account)} disabled={busy} aria-label={T.enableLabel(account.username)}>
                {T.enable}
              </Button>
            ) : (
              <Button variant="outlined" color="error" onClick={() => onDisable(account)} disabled={busy} aria-label={T.disableLabel(account.username)}>
                {T.disable}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
