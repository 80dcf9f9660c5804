// 'Add a member': one person of the directory who is not a member yet, a role, and their key's
// fingerprint to compare before confirming. Mounted fresh on every open.
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import type { DirectoryEntry } from '../../../contract/organisation.ts';
import type { AssignableTeamRole } from '../../../contract/team-folders.ts';
import { DialogChoice } from '../../app/forms/index.ts';
import { TEAM_DIALOG_TEXTS as T } from '../../lib/userTexts.ts';
import { MemberPicker, type PickedMember } from './MemberPicker.tsx';

interface AddMemberDialogProps {
  open: boolean;
  candidates: readonly DirectoryEntry[];
  busy: boolean;
  onCancel(): void;
  onAdd(member: PickedMember): void;
}

export function AddMemberDialog({ open, ...rest }: AddMemberDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={rest.busy ? undefined : rest.onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{T.addTitle}</DialogTitle>
      {open && <AddMemberForm {...rest} />}
    </Dialog>
  );
}

function AddMemberForm({ candidates, busy, onCancel, onAdd }: Omit<AddMemberDialogProps, 'open'>) {
  const [userId, setUserId] = useState<number | null>(null);
  const [role, setRole] = useState<AssignableTeamRole>('reader');
  const picked = candidates.find((account) => account.id === userId && account.public_key_spki !== null) ?? null;
  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{T.addIntro}</DialogContentText>
          <MemberPicker candidates={candidates} userId={userId} role={role} disabled={busy} onPick={setUserId} onRole={setRole} />
        </Stack>
      </DialogContent>
      <DialogChoice
        dismissLabel={T.cancel}
        onDismiss={onCancel}
        confirmLabel={busy ? T.adding : T.add}
        onConfirm={() => picked && onAdd({ account: picked, role })}
        busy={busy || picked === null}
      />
    </>
  );
}
