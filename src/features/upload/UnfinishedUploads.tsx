import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import type { QueueEntry } from './resume/queueEntry.ts';
import type { UploadController } from './uploadController.ts';
import { selectQueuedFiles, type QueuedFile } from './uploadQueueSlice.ts';

type Match = 'selected' | 'changed' | 'none';

/** Whether a queued file is this entry's file again (resumes), or a changed one at its place (starts over). */
function matchOf(entry: QueueEntry, queued: readonly QueuedFile[]): Match {
  const here = queued.filter((file) => file.relativePath === entry.relativePath && file.name === entry.name);
  if (here.some((file) => file.size === entry.size && file.lastModified === entry.lastModified)) return 'selected';
  return here.length > 0 ? 'changed' : 'none';
}

const MATCH_NOTE: Record<Match, string> = {
  selected: ' · selected again: continues when you press Upload',
  changed: ' · changed since: will be sent again from the start',
  none: '',
};

/**
 * The large files an earlier visit (a reload, a closed tab) left unfinished on this link, with how
 * much the server holds. Selecting the same files or folder again continues them (the engine
 * matches by path, name, size and date); Discard gives one up.
 */
export function UnfinishedUploads({ controller, refreshKey, disabled }: { controller: UploadController; refreshKey: unknown; disabled: boolean }) {
  const [entries, setEntries] = useState<QueueEntry[]>([]);
  const [delivered, setDelivered] = useState(0);
  const [reload, setReload] = useState(0);
  const queued = useAppSelector(selectQueuedFiles);

  useEffect(() => {
    let live = true;
    void Promise.all([controller.unfinishedUploads(), controller.deliveredBefore()]).then(([found, stored]) => {
      if (!live) return;
      setEntries(found);
      setDelivered(stored);
    });
    return () => {
      live = false;
    };
  }, [controller, refreshKey, reload]);

  if (entries.length === 0) return null;
  return (
    <Alert severity="info" component="section" aria-label="Unfinished uploads" data-testid="unfinished-uploads">
      <AlertTitle>Unfinished uploads ({entries.length})</AlertTitle>
      <Typography variant="body2">
        Select the same files or folder again and press Upload: they continue where they stopped, without sending again what is already stored.
        {delivered > 0 && ` ${delivered} ${delivered === 1 ? 'file' : 'files'} of that upload arrived before the interruption and will not be sent again.`}
      </Typography>
      <List dense aria-label="Unfinished files">
        {entries.map((entry) => (
          <ListItem
            key={entry.id}
            aria-label={entry.name}
            data-match={matchOf(entry, queued)}
            disableGutters
            secondaryAction={
              <Button
                size="small"
                disabled={disabled}
                onClick={() => void controller.discardUnfinished(entry.id).then(() => setReload((n) => n + 1))}
              >
                Discard
              </Button>
            }
          >
            <ListItemText
              primary={entry.relativePath === '.' ? entry.name : `${entry.relativePath}/${entry.name}`}
              secondary={`${formatBytes(entry.confirmedOffset, 'wholeFrom100')} of ${formatBytes(entry.encryptedLength, 'wholeFrom100')} stored${MATCH_NOTE[matchOf(entry, queued)]}`}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere', pr: 8 } } }}
            />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}
