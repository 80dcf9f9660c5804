// A member's own choice of the folder's upload e-mails (PUT /folders/{id}/team/me). The switch
// follows the click at once and goes back if saving fails.
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { useSetTeamNotifyMutation } from '../../api/teamApi.ts';
import { useNotifier } from '../../app/notifier.ts';
import { TEAM_TEXTS as T } from '../../lib/userTexts.ts';

export function NotifySwitch({ folderId, saved }: { folderId: number; saved: boolean }) {
  const notify = useNotifier();
  const [save, { isLoading }] = useSetTeamNotifyMutation();
  const [chosen, setChosen] = useState<boolean | null>(null);

  async function change(on: boolean) {
    setChosen(on);
    try {
      await save({ folderId, notify: on }).unwrap();
      notify.success(T.notifySaved);
    } catch (error) {
      setChosen(null);
      notify.error(error);
    }
  }

  return (
    <FormControlLabel
      control={<Switch checked={chosen ?? saved} disabled={isLoading} onChange={(event) => void change(event.target.checked)} />}
      label={T.notifyLabel}
    />
  );
}
