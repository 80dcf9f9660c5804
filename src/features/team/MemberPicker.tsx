// Picking one person of the organisation's directory (GET /org/directory) with a role, and showing
// the fingerprint of their key to compare out of band before it is added (docs/team-folders.md,
// "Adding a member"). People without a key pair cannot be picked: there is nothing to seal to.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { DirectoryEntry } from '../../../contract/organisation.ts';
import type { AssignableTeamRole } from '../../../contract/team-folders.ts';
import { TEAM_DIALOG_TEXTS as T, TEAM_ROLE_TEXTS, TEAM_TEXTS } from '../../lib/userTexts.ts';
import { useKeyFingerprint } from '../organisation/index.ts';

export interface PickedMember {
  account: DirectoryEntry;
  role: AssignableTeamRole;
}

export function personName(account: { username: string; display_name: string | null }): string {
  return account.display_name ? `${account.display_name} (${account.username})` : account.username;
}

function FingerprintToCompare({ spki }: { spki: string | null }) {
  const state = useKeyFingerprint(spki);
  if (state.kind === 'none') return null;
  return (
    <Box>
      <Typography variant="body2">{T.compareFingerprint}</Typography>
      <Typography variant="body1" component="code" data-testid="new-member-fingerprint" sx={{ fontFamily: 'monospace', fontWeight: 600, wordBreak: 'break-word', letterSpacing: 0.5 }}>
        {/* eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a mark that the fingerprint is being computed, not a text */}
        {state.kind === 'ready' ? state.fingerprint : state.kind === 'failed' ? TEAM_TEXTS.fingerprintFailed : '…'}
      </Typography>
    </Box>
  );
}

interface MemberPickerProps {
  candidates: readonly DirectoryEntry[];
  userId: number | null;
  role: AssignableTeamRole;
  disabled: boolean;
  onPick(userId: number | null): void;
  onRole(role: AssignableTeamRole): void;
}

export function MemberPicker({ candidates, userId, role, disabled, onPick, onRole }: MemberPickerProps) {
  const roleLabelId = useId();
  const picked = candidates.find((account) => account.id === userId) ?? null;
  if (candidates.length === 0) return <Alert severity="info">{T.noCandidates}</Alert>;
  return (
    <Stack spacing={2}>
      <TextField
        select
        label={T.personLabel}
        value={userId === null ? '' : String(userId)}
        onChange={(event) => onPick(event.target.value === '' ? null : Number(event.target.value))}
        disabled={disabled}
        fullWidth
      >
        {candidates.map((account) => (
          <MenuItem key={account.id} value={String(account.id)} disabled={account.public_key_spki === null}>
            {account.public_key_spki === null ? T.personWithoutKey(personName(account)) : personName(account)}
          </MenuItem>
        ))}
      </TextField>
      <FormControl disabled={disabled}>
        <FormLabel id={roleLabelId}>{TEAM_TEXTS.roleLabel}</FormLabel>
        <RadioGroup row aria-labelledby={roleLabelId} value={role} onChange={(event) => onRole(event.target.value as AssignableTeamRole)}>
          <FormControlLabel value="reader" control={<Radio />} label={TEAM_ROLE_TEXTS.reader} />
          <FormControlLabel value="manager" control={<Radio />} label={TEAM_ROLE_TEXTS.manager} />
        </RadioGroup>
      </FormControl>
      {picked && <FingerprintToCompare spki={picked.public_key_spki} />}
    </Stack>
  );
}
