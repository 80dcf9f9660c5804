// The verified members of a team folder: name, role, the fingerprint of the key the signed list
// names, and whether the account is disabled. Owners and managers change roles and remove members
// here; everyone else only reads. Attributes only the server knows (display name, disabled, the
// notification choice) are shown for members the signed list names, never used to add anyone.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AssignableTeamRole, TeamMember } from '../../../contract/team-folders.ts';
import { TEAM_ROLE_TEXTS, TEAM_TEXTS as T } from '../../lib/userTexts.ts';
import { fingerprintOfKeyHash } from './keyFingerprints.ts';
import type { VerifiedMember } from './teamPool.ts';

export interface ListedMember {
  member: VerifiedMember;
  /** The server's row for this member, if it sent one. */
  row: TeamMember | undefined;
}

export function memberName({ member, row }: ListedMember): string {
  return row?.display_name ? `${row.display_name} (${member.username})` : member.username;
}

interface MemberListProps {
  members: readonly ListedMember[];
  selfId: number;
  canManage: boolean;
  busy: boolean;
  onRole(member: VerifiedMember, role: AssignableTeamRole): void;
  onRemove(member: ListedMember): void;
}

function MemberItem({ listed, isSelf, canManage, busy, onRole, onRemove }: { listed: ListedMember; isSelf: boolean } & Omit<MemberListProps, 'members' | 'selfId'>) {
  const { member, row } = listed;
  const fingerprint = fingerprintOfKeyHash(member.keyHash);
  const editable = canManage && member.role !== 'owner' && !isSelf;
  return (
    <Paper component="li" variant="outlined" aria-label={member.username} sx={{ listStyle: 'none', p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <Stack spacing={1} sx={{ minWidth: 0 }}>
          <Typography variant="h3" component="h3" sx={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            {memberName(listed)}
            {isSelf && (
              <Typography component="span" variant="body2" color="text.secondary">
                {T.youSuffix}
              </Typography>
            )}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {!editable && <Chip size="small" variant="outlined" color={member.role === 'reader' ? 'default' : 'primary'} label={TEAM_ROLE_TEXTS[member.role]} />}
            {row?.is_disabled && <Chip size="small" color="error" label={T.disabledChip} />}
          </Stack>
          <Box>
            <Typography variant="caption" color="text.secondary" component="div">
              {T.fingerprintLabel}
            </Typography>
            <Typography variant="body2" component="code" data-testid="member-fingerprint" sx={{ fontFamily: 'monospace', wordBreak: 'break-word', letterSpacing: 0.5 }}>
              {fingerprint ?? T.fingerprintFailed}
            </Typography>
          </Box>
        </Stack>
        {editable && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, alignItems: 'center', flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label={T.roleLabel}
              value={member.role}
              disabled={busy}
              onChange={(event) => onRole(member, event.target.value as AssignableTeamRole)}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="reader">{TEAM_ROLE_TEXTS.reader}</MenuItem>
              <MenuItem value="manager">{TEAM_ROLE_TEXTS.manager}</MenuItem>
            </TextField>
            <Button variant="outlined" color="error" disabled={busy} onClick={() => onRemove(listed)} aria-label={T.removeLabel(member.username)}>
              {T.remove}
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

export function MemberList({ members, selfId, ...rest }: MemberListProps) {
  return (
    <Box component="ul" aria-label={T.title} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
      {members.map((listed) => (
        <MemberItem key={listed.member.userId} listed={listed} isSelf={listed.member.userId === selfId} {...rest} />
      ))}
    </Box>
  );
}
