// Upload notifications of one folder, on its edit screen (docs/api.md "Upload notifications"):
// off, an e-mail per upload session, or a daily summary, and whether the e-mail lists file names.
// Saved on its own (PUT /folders/{id}/notifications), apart from the folder form.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useGetFolderNotificationsQuery, useSaveFolderNotificationsMutation } from '../../api/foldersApi.ts';
import { describeApiError } from '../../api/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { useNotifier } from '../../app/notifier.ts';
import type { NotificationSettings, NotifyMode } from '../../../contract/notifications.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { FOLDER_PAGE_MESSAGES, NOTIFICATION_TEXTS } from '../../lib/userTexts.ts';

function SettingsForm({ folderId, initial }: { folderId: number; initial: NotificationSettings }) {
  const intl = useIntl();
  const labelId = useId();
  const notify = useNotifier();
  const user = useAppSelector(selectCurrentUser);
  const [settings, setSettings] = useState(initial);
  const [save, { isLoading, error }] = useSaveFolderNotificationsMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await save({ folderId, settings }).unwrap();
      notify.success(NOTIFICATION_TEXTS.saved);
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <Stack component="form" spacing={2} onSubmit={submit} aria-label={NOTIFICATION_TEXTS.title}>
      {user !== null && !user.email && settings.mode !== 'off' && <Alert severity="info">{NOTIFICATION_TEXTS.noAddress}</Alert>}
      <FormControl>
        <FormLabel id={`${labelId}-mode`}>{intl.formatMessage(FOLDER_PAGE_MESSAGES.emailMe)}</FormLabel>
        <RadioGroup
          aria-labelledby={`${labelId}-mode`}
          name="notify_mode"
          value={settings.mode}
          onChange={(event) => setSettings((current) => ({ ...current, mode: event.target.value as NotifyMode }))}
        >
          <FormControlLabel value="each" control={<Radio />} label={NOTIFICATION_TEXTS.each} disabled={isLoading} />
          <FormControlLabel value="digest" control={<Radio />} label={NOTIFICATION_TEXTS.digest} disabled={isLoading} />
          <FormControlLabel value="off" control={<Radio />} label={NOTIFICATION_TEXTS.off} disabled={isLoading} />
        </RadioGroup>
      </FormControl>
      <div>
        <FormControlLabel
          control={
            <Checkbox
              name="include_file_names"
              checked={settings.include_file_names}
              disabled={isLoading || settings.mode === 'off'}
              onChange={(event) => setSettings((current) => ({ ...current, include_file_names: event.target.checked }))}
            />
          }
          label={NOTIFICATION_TEXTS.includeNames}
        />
        <Typography variant="body2" color="text.secondary" sx={{ ml: 4, mt: -0.5 }}>
          {NOTIFICATION_TEXTS.includeNamesHint}
        </Typography>
      </div>
      {error !== undefined && <Alert severity="error">{describeApiError(error).message}</Alert>}
      <div>
        <Button type="submit" variant="outlined" disabled={isLoading}>
          {NOTIFICATION_TEXTS.save}
        </Button>
      </div>
    </Stack>
  );
}

export function NotificationSettingsSection({ folderId }: { folderId: number }) {
  const intl = useIntl();
  const headingId = useId();
  const { data, error } = useGetFolderNotificationsQuery(folderId, { refetchOnMountOrArgChange: true });
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id={headingId} variant="h3" component="h2" sx={{ mb: 2 }}>
        {NOTIFICATION_TEXTS.title}
      </Typography>
      {data !== undefined ? (
        <SettingsForm key={folderId} folderId={folderId} initial={data} />
      ) : error !== undefined ? (
        <Alert severity="error">{describeApiError(error).message}</Alert>
      ) : (
        <LoadingMessage text={intl.formatMessage(FOLDER_PAGE_MESSAGES.loading)} />
      )}
    </Paper>
  );
}
