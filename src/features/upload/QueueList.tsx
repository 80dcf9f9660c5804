import Box from '@mui/material/Box';
import { memo, useState } from 'react';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { queueMessages } from './messages.ts';
import { QUEUE_ROW_HEIGHT, QueueRow } from './QueueRow.tsx';
import { selectQueuedFileIds } from './uploadQueueSlice.ts';

/** Spec: the queue list is 15rem high and scrolls. */
export const QUEUE_HEIGHT = '15rem';
const VISIBLE_ROWS = Math.ceil(240 / QUEUE_ROW_HEIGHT);
/** Rows rendered beyond the visible ones; a short list is rendered whole. */
const OVERSCAN_ROWS = 40;

interface QueueListProps {
  idle: boolean;
  onRemove(id: string): void;
  onRetry(id: string): void;
}

/**
 * The file queue. Only the rows near the visible window are rendered, so a dropped folder of
 * thousands of files costs the page a few dozen rows; each row subscribes to its own entry, so a
 * progress update re-renders only the rows that changed.
 */
export const QueueList = memo(function QueueList({ idle, onRemove, onRetry }: QueueListProps) {
  const intl = useIntl();
  const ids = useAppSelector(selectQueuedFileIds);
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / QUEUE_ROW_HEIGHT) - OVERSCAN_ROWS);
  const last = Math.min(ids.length, Math.floor(scrollTop / QUEUE_ROW_HEIGHT) + VISIBLE_ROWS + OVERSCAN_ROWS);
  return (
    <Box
      role="list"
      aria-label={intl.formatMessage(queueMessages.list)}
      // Focusable, so a keyboard user can scroll it with the arrow keys: once a run ends the rows
      // have no buttons left to tab to (WCAG 2.1.1, axe's scrollable-region-focusable).
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      sx={{ height: QUEUE_HEIGHT, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}
    >
      <Box sx={{ height: ids.length * QUEUE_ROW_HEIGHT, position: 'relative' }}>
        <Box sx={{ position: 'absolute', top: first * QUEUE_ROW_HEIGHT, left: 0, right: 0 }}>
          {ids.slice(first, last).map((id) => (
            <QueueRow key={id} id={id} idle={idle} onRemove={onRemove} onRetry={onRetry} />
          ))}
        </Box>
      </Box>
    </Box>
  );
});
