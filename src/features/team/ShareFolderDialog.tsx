// 'Share this folder' (its owner, the first time): a list of people with their roles, each picked
// with their fingerprint shown, then one share that re-seals the existing files' keys to the new
// folder key. While many files are re-sealed, the dialog says so.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { DirectoryEntry } from '../../../contract/organisation.ts';
import type { AssignableTeamRole } from '../../../contract/team-folders.ts';
import { DialogChoice } from '../../app/forms/index.ts';
import { CloseIcon } from '../../app/icons.tsx';
import { TEAM_DIALOG_TEXTS as T, TEAM_ROLE_TEXTS } from '../../lib/userTexts.ts';
import { MemberPicker, personName, type PickedMember } from './MemberPicker.tsx';

/** From this many files on, the re-sealing is worth a progress line. */
const PROGRESS_FROM_FILES = 20;

interface ShareFolderDialogProps {
  open: boolean;
  candidates: readonly DirectoryEntry[];
  fileCount: number;
  busy: boolean;
  onCancel(): void;
  onShare(members: PickedMember[]): void;
}

export function ShareFolderDialog({ open, ...rest }: ShareFolderDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={rest.busy ? undefined : rest.onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{T.shareTitle}</DialogTitle>
      {open && <ShareForm {...rest} />}
    </Dialog>
  );
}

function ShareForm({ candidates, fileCount, busy, onCancel, onShare }: Omit<ShareFolderDialogProps, 'open'>) {
  const listId = useId();
  const [chosen, setChosen] = useState<PickedMember[]>([]);
  const [userId, setUserId] = useState<number | null>(null);
  const [role, setRole] = useState<AssignableTeamRole>('reader');
  const left = candidates.filter((account) => !chosen.some((member) => member.account.id === account.id));
  const picked = left.find((account) => account.id === userId && account.public_key_spki !== null) ?? null;

  function addToList() {
    if (!picked) return;
    setChosen((current) => [...current, { account: picked, role }]);
    setUserId(null);
    setRole('reader');
  }

  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{T.shareIntro}</DialogContentText>
          {/* Once everyone is on the list there is nobody left to pick. */}
          {(left.length > 0 || chosen.length === 0) && (
            <>
              <MemberPicker candidates={left} userId={userId} role={role} disabled={busy} onPick={setUserId} onRole={setRole} />
              <div>
                <Button variant="outlined" onClick={addToList} disabled={busy || picked === null}>
                  {T.addToList}
                </Button>
              </div>
            </>
          )}
          <Typography id={listId} variant="subtitle2" component="h3">
            {T.memberListLabel}
          </Typography>
          {chosen.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {T.shareNone}
            </Typography>
          ) : (
            <List dense aria-labelledby={listId} disablePadding>
              {chosen.map((member) => (
                <ListItem
                  key={member.account.id}
                  disableGutters
                  secondaryAction={
                    <IconButton edge="end" aria-label={T.removeFromList(member.account.username)} onClick={() => setChosen((current) => current.filter((m) => m !== member))} disabled={busy}>
                      <CloseIcon />
                    </IconButton>
                  }
                >
                  <ListItemText primary={personName(member.account)} secondary={TEAM_ROLE_TEXTS[member.role]} />
                </ListItem>
              ))}
            </List>
          )}
          {busy && fileCount >= PROGRESS_FROM_FILES && (
            <div role="status">
              <Typography variant="body2">{T.shareProgress(fileCount)}</Typography>
              <LinearProgress aria-label={T.shareProgress(fileCount)} />
            </div>
          )}
        </Stack>
      </DialogContent>
      <DialogChoice
        dismissLabel={T.cancel}
        onDismiss={onCancel}
        confirmLabel={busy ? T.sharing : T.shareConfirm}
        onConfirm={() => onShare(chosen)}
        busy={busy || chosen.length === 0}
      />
    </>
  );
}
