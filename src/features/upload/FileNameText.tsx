import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Characters kept whole at the end of a long name: its extension and what comes just before it. */
const TAIL_MIN = 10;

/** The name split so that the end (where names differ: "take 12.mov", "_final.pdf") is never cut. */
export function splitForTruncation(name: string): { head: string; tail: string } {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.length - dot : 0;
  const tailLength = Math.min(Math.max(TAIL_MIN, extension + 4), Math.floor(name.length / 2));
  return { head: name.slice(0, name.length - tailLength), tail: name.slice(name.length - tailLength) };
}

/**
 * A file name on one line that, when it does not fit (a 375 px wide phone), is cut in the middle
 * ("Interview_with_the_dir…ut_take_12.mov") instead of at the end, where names differ. The row has
 * a fixed height (the list is virtualised), so wrapping is not an option. The whole name is the title.
 */
export function FileNameText({ name }: { name: string }) {
  const { head, tail } = splitForTruncation(name);
  return (
    <Typography variant="body2" component="div" title={name} sx={{ fontWeight: 600, display: 'flex', minWidth: 0, whiteSpace: 'pre' }}>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', flexShrink: 1, minWidth: 0 }}>
        {head}
      </Box>
      <Box component="span" sx={{ flexShrink: 0 }}>
        {tail}
      </Box>
    </Typography>
  );
}
