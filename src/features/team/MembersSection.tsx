// The folder page's 'Members' section (docs/team-folders.md): for a personal folder its owner's
// 'Share Folder...'; for a team folder the member list the worker verified (opened with the
// unlocked private key), with 'key last changed', the disabled members managers should remove,
// adding, removing and changing roles for owners and managers, and each member's own notification
// choice. A list the worker refused shows a warning instead, and nothing is signed for the folder.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useId, useState } from 'react';
import type { Folder } from '../../../contract/folders.ts';
import type { AssignableTeamRole } from '../../../contract/team-folders.ts';
import { describeApiError } from '../../api/errors.ts';
import { useDirectoryQuery } from '../../api/orgApi.ts';
import { useGetTeamQuery } from '../../api/teamApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { TEAM_TEXTS as T } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { selectPrivateKey, usePrivateKeyUnlock } from '../keys/index.ts';
import { AddMemberDialog } from './AddMemberDialog.tsx';
import { manifestRefusal } from './manifestRefusal.ts';
import { MemberList, memberName, type ListedMember } from './MemberList.tsx';
import type { PickedMember } from './MemberPicker.tsx';
import { RemoveMemberDialog } from './RemoveMemberDialog.tsx';
import { ShareFolderDialog } from './ShareFolderDialog.tsx';
import type { TeamChange, VerifiedMember } from './teamPool.ts';
import { selectFolderTeam, type OpenedTeam } from './teamSlice.ts';
import { NotifySwitch } from './NotifySwitch.tsx';
import { TeamRefusedWarning } from './TeamRefusedWarning.tsx';
import { changeTeamWithRetry, isTeamChanged, shareWithRetry } from './teamWrites.ts';
import { useOpenTeam } from './useTeamAccess.ts';

type Phase = { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; message: string };
type Dialog = { kind: 'none' } | { kind: 'add' } | { kind: 'share' } | { kind: 'remove'; member: ListedMember };

function actionFailureText(error: unknown): string {
  return isTeamChanged(error) ? T.teamChangedFailed : T.changeFailed(describeApiError(error).message);
}

export function MembersSection({ folder }: { folder: Folder }) {
  const headingId = useId();
  const dispatch = useAppDispatch();
  const notify = useNotifier();
  const cryptoPool = useCryptoPool();
  const user = useAppSelector(selectCurrentUser);
  const privateKey = useAppSelector(selectPrivateKey);
  const state = useAppSelector((root) => selectFolderTeam(root, folder.id));
  const { requestPrivateKey, unlockDialog } = usePrivateKeyUnlock();
  const openTeam = useOpenTeam(folder.id);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; retry: () => void } | null>(null);
  const opened = state?.status === 'opened' ? state : null;
  const myRole = opened?.team.members.find((member) => member.userId === user?.id)?.role ?? null;
  const canManage = opened !== null && (myRole === 'owner' || myRole === 'manager');
  const canShare = !folder.is_team && folder.my_role === 'owner';
  const teamRows = useGetTeamQuery(folder.id, { skip: !folder.is_team });
  const directory = useDirectoryQuery(undefined, { skip: !(canManage || canShare) });

  const load = useCallback(
    async (key = privateKey, fresh = false) => {
      if (!key) return;
      setPhase({ kind: 'loading' });
      try {
        await openTeam(key, fresh);
        setPhase({ kind: 'idle' });
      } catch (error) {
        // A refusal is in the team slice (the warning below); anything else is this section's failure.
        setPhase(manifestRefusal(error) ? { kind: 'idle' } : { kind: 'failed', message: T.loadFailed(describeApiError(error).message) });
      }
    },
    [openTeam, privateKey],
  );

  useEffect(() => {
    if (folder.is_team && privateKey && state === undefined && phase.kind === 'idle') void load(privateKey);
  }, [folder.is_team, load, phase.kind, privateKey, state]);

  async function unlockAndLoad() {
    const key = await requestPrivateKey();
    if (key) await load(key, true);
  }

  async function run(action: () => Promise<void>, done: string) {
    setBusy(true);
    setFailure(null);
    try {
      await action();
      setDialog({ kind: 'none' });
      notify.success(done);
    } catch (error) {
      console.warn('Changing the members failed', error instanceof Error ? error.name : 'request error');
      setDialog({ kind: 'none' });
      setFailure({ message: actionFailureText(error), retry: () => void run(action, done) });
    } finally {
      setBusy(false);
    }
  }

  function change(team: OpenedTeam, teamChange: TeamChange) {
    const key = privateKey;
    if (!key) return;
    void run(
      () =>
        changeTeamWithRetry(
          { dispatch, pool: cryptoPool(), privateKey: key, reopen: () => openTeam(key, true) },
          folder.id,
          // The newest opened state at the time of the (re)try.
          team,
          teamChange,
        ),
      T.changed,
    );
  }

  function share(members: PickedMember[]) {
    const key = privateKey;
    if (!key || !user?.public_key_spki) return;
    const owner = { userId: user.id, username: user.username, role: 'owner' as const, publicKeySpki: user.public_key_spki };
    const inputs = members.map(({ account, role }) => ({ userId: account.id, username: account.username, role, publicKeySpki: account.public_key_spki! }));
    void run(async () => {
      await shareWithRetry({ dispatch, pool: cryptoPool(), privateKey: key }, folder.id, owner, inputs);
      await openTeam(key, true);
    }, T.shared);
  }

  async function startShare() {
    const key = await requestPrivateKey();
    if (key) setDialog({ kind: 'share' });
  }

  const rows = teamRows.data?.members ?? [];
  const listed: ListedMember[] = (opened?.team.members ?? []).map((member) => ({ member, row: rows.find((row) => row.user_id === member.userId) }));
  const disabled = listed.filter(({ row }) => row?.is_disabled);
  const candidates = (directory.data?.accounts ?? []).filter((account) => !listed.some(({ member }) => member.userId === account.id) && account.id !== user?.id);
  const latestEpoch = opened?.team.epochs.at(-1) ?? null;
  const myRow = rows.find((row) => row.user_id === user?.id);

  let body;
  if (!folder.is_team) {
    body = canShare ? (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="body2">{T.personalIntro}</Typography>
        <Button variant="outlined" onClick={() => void startShare()} disabled={busy}>
          {T.share}
        </Button>
      </Stack>
    ) : null;
  } else if (state?.status === 'refused') {
    body = <TeamRefusedWarning refusal={state} onRetry={() => void load(privateKey, true)} />;
  } else if (!opened) {
    if (phase.kind === 'failed') {
      body = (
        <Alert severity="error" role="alert" action={<Button color="inherit" onClick={() => void load(privateKey, true)}>{T.retry}</Button>}>
          {phase.message}
        </Alert>
      );
    } else if (!privateKey) {
      body = (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="body2">{T.unlockToSee}</Typography>
          <Button variant="outlined" onClick={() => void unlockAndLoad()}>
            {T.unlock}
          </Button>
        </Stack>
      );
    } else {
      body = <LoadingMessage text={T.loading} />;
    }
  } else {
    body = (
      <Stack spacing={2}>
        {latestEpoch && (
          <Typography variant="body2" color="text.secondary">
            {T.keyLastChanged(formatDateTime(latestEpoch.createdAt), latestEpoch.epoch)}
          </Typography>
        )}
        {canManage && disabled.length > 0 && <Alert severity="warning">{T.disabledNotice(disabled.map(memberName).join(', '))}</Alert>}
        {!canManage && <Typography variant="body2">{T.readerNote}</Typography>}
        <MemberList
          members={listed}
          selfId={user?.id ?? -1}
          canManage={canManage}
          busy={busy}
          onRole={(member: VerifiedMember, role: AssignableTeamRole) => change(opened, { setRole: [{ userId: member.userId, role }] })}
          onRemove={(member) => setDialog({ kind: 'remove', member })}
        />
        {canManage && (
          <div>
            <Button variant="outlined" onClick={() => setDialog({ kind: 'add' })} disabled={busy}>
              {T.add}
            </Button>
          </div>
        )}
        {myRow && <NotifySwitch folderId={folder.id} saved={myRow.notify} />}
      </Stack>
    );
  }

  if (body === null) return null;
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h3" component="h2" sx={{ mb: 2 }}>
        {T.title}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} action={<Button color="inherit" onClick={failure.retry} disabled={busy}>{T.retry}</Button>}>
          {failure.message}
        </Alert>
      )}
      {body}
      {opened && (
        <>
          <AddMemberDialog
            open={dialog.kind === 'add'}
            candidates={candidates}
            busy={busy}
            onCancel={() => setDialog({ kind: 'none' })}
            onAdd={({ account, role }) =>
              change(opened, { add: [{ userId: account.id, username: account.username, role, publicKeySpki: account.public_key_spki! }] })
            }
          />
          <RemoveMemberDialog
            name={dialog.kind === 'remove' ? memberName(dialog.member) : null}
            busy={busy}
            onCancel={() => setDialog({ kind: 'none' })}
            onConfirm={() => dialog.kind === 'remove' && change(opened, { remove: [dialog.member.member.userId] })}
          />
        </>
      )}
      {canShare && (
        <ShareFolderDialog
          open={dialog.kind === 'share'}
          candidates={candidates}
          fileCount={folder.used_files}
          busy={busy}
          onCancel={() => setDialog({ kind: 'none' })}
          onShare={share}
        />
      )}
      {unlockDialog}
    </Paper>
  );
}
