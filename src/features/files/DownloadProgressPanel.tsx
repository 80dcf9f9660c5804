import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useIntl, type IntlShape } from 'react-intl';
import type { ActiveDownload } from './useFileDownloads.tsx';
import { formatBytes } from '../../lib/formatBytes.ts';
import { formatDuration } from '../../lib/userTexts.ts';
import { progressMessages } from './messages.ts';

function figures(active: ActiveDownload, intl: IntlShape): string {
  const { progress } = active;
  if (!progress) return intl.formatMessage(progressMessages.preparing);
  const bytes = formatBytes(progress.bytes, 'oneDecimal');
  const parts = [progress.totalBytes > 0 ? intl.formatMessage(progressMessages.sentOfTotal, { sent: bytes, total: formatBytes(progress.totalBytes, 'oneDecimal') }) : bytes];
  if (progress.rateBytesPerSecond > 0) parts.push(`${formatBytes(progress.rateBytesPerSecond, 'oneDecimal')}/s`);
  if (progress.secondsLeft !== null) parts.push(intl.formatMessage(progressMessages.timeLeft, { duration: formatDuration(progress.secondsLeft) }));
  return parts.join(' · ');
}

/**
 * Bytes, rate and time left of the running download (decrypted in the browser, written by its
 * download manager). A named region, not a live one: its figures change several times a second;
 * screen readers hear the download by quarters instead (downloadAnnouncement.ts).
 */
export function DownloadProgressPanel({ active, onCancel }: { active: ActiveDownload; onCancel(): void }) {
  const intl = useIntl();
  const { progress } = active;
  const percent = progress && progress.totalBytes > 0 ? Math.min(100, (100 * progress.bytes) / progress.totalBytes) : null;
  const fileCount = ` ${intl.formatMessage(progressMessages.fileCount, { count: active.fileCount })}`;
  return (
    <Paper variant="outlined" role="region" aria-label={intl.formatMessage(progressMessages.region)} sx={{ px: 2.5, py: 2, mb: 2, borderColor: 'secondary.main', bgcolor: '#f2f8f8' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
            <Typography sx={{ fontWeight: 600, minWidth: 0 }} noWrap title={active.label}>
              {intl.formatMessage(progressMessages.downloading, { label: active.label })}
              {active.fileCount > 1 && (
                <Typography component="span" color="text.secondary" sx={{ fontWeight: 400 }}>
                  {fileCount}
                </Typography>
              )}
            </Typography>
            {percent !== null && (
              <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {intl.formatMessage(progressMessages.percent, { percent: percent.toFixed(0) })}
              </Typography>
            )}
          </Stack>
          <LinearProgress
            // Remounted when the size becomes known, so no indeterminate animation lingers on the bar.
            key={percent === null ? 'waiting' : 'known'}
            color="secondary"
            variant={percent === null ? 'indeterminate' : 'determinate'}
            {...(percent !== null ? { value: percent } : {})}
            aria-label={intl.formatMessage(progressMessages.region)}
            sx={{ height: 6, borderRadius: 3 }}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, fontVariantNumeric: 'tabular-nums' }} data-testid="download-figures">
            {figures(active, intl)}
          </Typography>
        </Box>
        <Button color="inherit" onClick={onCancel}>
          {intl.formatMessage(progressMessages.cancel)}
        </Button>
      </Stack>
    </Paper>
  );
}
