// A list of activity log entries for some filters, newest first, with "Load older entries" (pages
// by seq). Used by the Activity screen and, for one folder, by the files screen.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useGetActivityQuery, type ActivityFilters } from '../../api/activityApi.ts';
import { describeApiError } from '../../api/errors.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import type { ActivityEntry } from '../../../contract/activity.ts';
import { ACTIVITY_TEXTS } from '../../lib/userTexts.ts';
import { activityLabel, activitySummary } from './activityDisplay.ts';
import { ACTIVITY_MESSAGES as messages } from './messages.ts';

function Entry({ entry }: { entry: ActivityEntry }) {
  const summary = activitySummary(entry);
  return (
    <Box component="li" sx={{ listStyle: 'none', py: 1.25, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.25, sm: 2 }} sx={{ alignItems: { sm: 'baseline' } }}>
        <Typography variant="body2" color="text.secondary" sx={{ minWidth: { sm: 190 }, whiteSpace: 'nowrap' }}>
          {formatDateTime(entry.at)}
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {activityLabel(entry.kind)}
        </Typography>
        {summary !== '' && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {summary}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

export function ActivityList({ filters, pageSize = 50, label }: { filters: ActivityFilters; pageSize?: number; label: string }) {
  const intl = useIntl();
  const [beforeSeq, setBeforeSeq] = useState<number | undefined>(undefined);
  const [shown, setShown] = useState<ActivityEntry[]>([]);
  const filterKey = JSON.stringify(filters);
  const { data, error, isFetching } = useGetActivityQuery({ ...filters, beforeSeq, limit: pageSize });

  // New filters start from the newest entry again.
  useEffect(() => {
    setBeforeSeq(undefined);
    setShown([]);
  }, [filterKey]);

  useEffect(() => {
    if (!data) return;
    setShown((current) => {
      const known = new Set(current.map((entry) => entry.seq));
      return [...current, ...data.entries.filter((entry) => !known.has(entry.seq))];
    });
  }, [data]);

  if (error !== undefined) return <Alert severity="error">{describeApiError(error).message}</Alert>;
  if (shown.length === 0 && isFetching) return <LoadingMessage text={intl.formatMessage(messages.loading)} />;
  if (shown.length === 0) return <Typography color="text.secondary">{ACTIVITY_TEXTS.empty}</Typography>;
  return (
    <Stack spacing={1.5}>
      <Box component="ul" aria-label={label} sx={{ m: 0, p: 0 }}>
        {shown.map((entry) => (
          <Entry key={entry.seq} entry={entry} />
        ))}
      </Box>
      {data?.next_before_seq != null && (
        <div>
          <Button variant="outlined" disabled={isFetching} onClick={() => setBeforeSeq(data.next_before_seq ?? undefined)}>
            {ACTIVITY_TEXTS.loadOlder}
          </Button>
        </div>
      )}
    </Stack>
  );
}
