import Box from '@mui/material/Box';

// Hidden from sight, not from screen readers (the usual clip pattern; display:none would hide it from both).
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/**
 * A polite live region nobody sees: screen readers read `message` whenever it changes, once they
 * are idle. It must be on the page before the first message (a region that appears together with
 * its text is not announced by every screen reader), so render it always and pass '' for silence.
 */
export function PoliteAnnouncer({ message }: { message: string }) {
  return (
    <Box role="status" aria-live="polite" aria-atomic="true" data-testid="live-announcer" sx={visuallyHidden}>
      {message}
    </Box>
  );
}
