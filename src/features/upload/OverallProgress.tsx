import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { transferLine } from './formatTransfer.ts';
import { progressMessages } from './messages.ts';
import { selectOverallProgress } from './uploadQueueSlice.ts';

/** The whole run: bytes, rate and time left, and files done. */
export function OverallProgress({ running }: { running: boolean }) {
  const intl = useIntl();
  const overall = useAppSelector(selectOverallProgress);
  if (!overall || !running) return null;
  const percent = overall.bytesTotal > 0 ? Math.floor((overall.bytesSent / overall.bytesTotal) * 100) : 0;
  return (
    <Box aria-label={intl.formatMessage(progressMessages.region)} role="group">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.75, gap: 2 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {intl.formatMessage(progressMessages.percent, { percent })}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="overall-files">
          {intl.formatMessage(progressMessages.filesDone, { done: overall.filesDone, total: overall.filesTotal })}
        </Typography>
      </Box>
      <LinearProgress variant="determinate" value={percent} color="secondary" sx={{ height: 8, borderRadius: 4 }} aria-label={intl.formatMessage(progressMessages.bar)} />
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }} data-testid="overall-transfer">
        {transferLine(overall.bytesSent, overall.bytesTotal, overall.bytesPerSecond, overall.secondsLeft)}
      </Typography>
    </Box>
  );
}
