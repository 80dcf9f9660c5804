import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** A quiet full-width waiting state, e.g. 'Loading authentication status...'. */
export function LoadingMessage({ text }: { text: string }) {
  return (
    <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 10 }}>
      {/* The text beside it names the wait; the spinner itself is decoration (axe: aria-progressbar-name). */}
      <CircularProgress size={32} aria-hidden />
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
