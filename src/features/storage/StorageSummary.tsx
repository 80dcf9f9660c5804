// The dashboard's storage panel: what the admin's folders hold together and, with the disk store,
// the free space of the server's disk and its reserve (with a warning in words when uploads are
// refused for want of space). A component of its own, so the dashboard's layout places it.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useGetStorageOverviewQuery } from '../../api/storageApi.ts';
import { STORAGE_TEXTS } from '../../lib/userTexts.ts';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Typography>
    </Box>
  );
}

export function StorageSummary() {
  const headingId = useId();
  const { data, isLoading, error } = useGetStorageOverviewQuery(undefined, { refetchOnMountOrArgChange: true });
  let content;
  if (isLoading) content = <Typography color="text.secondary">{STORAGE_TEXTS.loading}</Typography>;
  else if (error || !data) content = <Typography color="text.secondary">{STORAGE_TEXTS.loadFailed}</Typography>;
  else {
    const reserve = data.reserve_bytes ?? 0;
    const atReserve = data.free_bytes !== null && data.free_bytes <= reserve;
    content = (
      <>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <Figure label={STORAGE_TEXTS.totalLabel} value={STORAGE_TEXTS.total(data.used_bytes, data.used_files, data.folders)} />
          {data.free_bytes === null ? (
            <Figure label={STORAGE_TEXTS.freeLabel} value={STORAGE_TEXTS.noLocalDisk} />
          ) : (
            <Figure label={STORAGE_TEXTS.freeLabel} value={STORAGE_TEXTS.free(data.free_bytes, reserve)} />
          )}
        </Box>
        {atReserve && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {STORAGE_TEXTS.lowSpace}
          </Alert>
        )}
      </>
    );
  }
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mb: 2 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1.5 }}>
        {STORAGE_TEXTS.title}
      </Typography>
      {content}
    </Paper>
  );
}
