import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../app/hooks.ts';
import { transferLine } from './formatTransfer.ts';
import { selectOverallProgress } from './uploadQueueSlice.ts';

/** The whole run: bytes, rate and time left, and files done. */
export function OverallProgress({ running }: { running: boolean }) {
  const overall = useAppSelector(selectOverallProgress);
  if (!overall || !running) return null;
  const percent = overall.bytesTotal > 0 ? Math.floor((overall.bytesSent / overall.bytesTotal) * 100) : 0;
  return (
    <Box aria-label="Overall progress" role="group">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.75, gap: 2 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          Encrypting and uploading: {percent}%
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="overall-files">
          {overall.filesDone} of {overall.filesTotal} files done
        </Typography>
      </Box>
      <LinearProgress variant="determinate" value={percent} color="secondary" sx={{ height: 8, borderRadius: 4 }} aria-label="Overall upload progress" />
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }} data-testid="overall-transfer">
        {transferLine(overall.bytesSent, overall.bytesTotal, overall.bytesPerSecond, overall.secondsLeft)}
      </Typography>
    </Box>
  );
}
