// The Activity screen: the account's whole log, filtered by folder, kind and time, paged, exported
// as CSV or JSON, with the result of the hash chain check.
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Button from '@mui/material/Button';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { activityExportUrl, useVerifyActivityQuery, type ActivityFilters } from '../../api/activityApi.ts';
import { useListFoldersQuery } from '../../api/foldersApi.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { displayTitle } from '../../lib/folderDisplay.ts';
import { ACTIVITY_KINDS, type ActivityKind } from '../../../contract/activity.ts';
import { ActivityList } from './ActivityList.tsx';
import { ACTIVITY_LABELS, ACTIVITY_TEXTS } from '../../lib/userTexts.ts';
import { ACTIVITY_MESSAGES as messages } from './messages.ts';

/** 'YYYY-MM-DD' of a date input as the start of that local day, ISO. */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);
const dayEnd = (day: string) => {
  if (!day) return undefined;
  const end = new Date(`${day}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return end.toISOString();
};

function ChainStatus() {
  const { data } = useVerifyActivityQuery();
  if (!data) return null;
  return data.ok ? (
    <Chip color="success" variant="outlined" label={ACTIVITY_TEXTS.chainOk(data.entries)} />
  ) : (
    <Chip color="error" label={ACTIVITY_TEXTS.chainBroken(data.first_broken_seq ?? 0)} />
  );
}

export function ActivityPage({ folderId }: { folderId?: number | undefined }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const { data: folders } = useListFoldersQuery({ sort_by: 'title', sort_order: 'asc' });
  const [kind, setKind] = useState<ActivityKind | ''>('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const filters: ActivityFilters = { folderId, kinds: kind ? [kind] : undefined, from: dayStart(fromDay), to: dayEnd(toDay) };

  return (
    <Stack sx={{ maxWidth: 960, mx: 'auto' }} spacing={3}>
      <PageHeader title={ACTIVITY_TEXTS.title} subtitle={ACTIVITY_TEXTS.subtitle} back={<BackToDashboardLink />} actions={<ChainStatus />} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 3 }}>
          <TextField
            select
            label={intl.formatMessage(messages.folder)}
            value={folderId === undefined ? '' : String(folderId)}
            onChange={(event) => void navigate({ to: '/activity', search: event.target.value ? { folder_id: Number(event.target.value) } : {} })}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">{intl.formatMessage(messages.allFolders)}</MenuItem>
            {(folders ?? []).map((folder) => (
              <MenuItem key={folder.id} value={String(folder.id)}>
                {displayTitle(folder.title)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={intl.formatMessage(messages.kind)}
            value={kind}
            onChange={(event) => setKind(event.target.value as ActivityKind | '')}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            sx={{ minWidth: 220 }}
          >
            <MenuItem value="">{intl.formatMessage(messages.allKinds)}</MenuItem>
            {ACTIVITY_KINDS.map((item) => (
              <MenuItem key={item} value={item}>
                {ACTIVITY_LABELS[item]}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={intl.formatMessage(messages.from)} type="date" value={fromDay} onChange={(event) => setFromDay(event.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField label={intl.formatMessage(messages.to)} type="date" value={toDay} onChange={(event) => setToDay(event.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ mb: 2 }}>
          <Button variant="outlined" size="small" href={activityExportUrl(filters, 'csv')}>
            {ACTIVITY_TEXTS.exportCsv}
          </Button>
          <Button variant="outlined" size="small" href={activityExportUrl(filters, 'json')}>
            {ACTIVITY_TEXTS.exportJson}
          </Button>
        </Stack>
        <ActivityList filters={filters} label={ACTIVITY_TEXTS.title} />
      </Paper>
    </Stack>
  );
}
