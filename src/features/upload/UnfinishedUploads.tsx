import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { useGetUploadLinkStatusQuery } from '../../api/uploadApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import { rememberSources } from './filePickers.ts';
import { unfinishedMessages } from './messages.ts';
import type { QueueEntry } from './resume/queueEntry.ts';
import { reopenSources, type ReopenProblem } from './resume/reopenSources.ts';
import { selectUploadStepState } from './uploadStepSlice.ts';
import type { UploadController } from './uploadController.ts';
import { selectQueuedFiles, type QueuedFile } from './uploadQueueSlice.ts';

type Match = 'selected' | 'changed' | 'none';

const HOUR_MS = 3_600_000;

/** Whether a queued file is this entry's file again (resumes), or a changed one at its place (starts over). */
function matchOf(entry: QueueEntry, queued: readonly QueuedFile[]): Match {
  const here = queued.filter((file) => file.relativePath === entry.relativePath && file.name === entry.name);
  if (here.some((file) => file.size === entry.size && file.lastModified === entry.lastModified)) return 'selected';
  return here.length > 0 ? 'changed' : 'none';
}

/**
 * The entries to list: while a run is sending, the files it is sending are not unfinished leftovers
 * (their entries are this run's own journal, or were just discarded for a changed file), so only
 * entries the run does not touch stay listed.
 */
export function listedEntries(entries: readonly QueueEntry[], queued: readonly QueuedFile[], running: boolean): readonly QueueEntry[] {
  return running ? entries.filter((entry) => matchOf(entry, queued) === 'none') : entries;
}

const MATCH_NOTE: Record<Match, MessageDescriptor | null> = {
  selected: unfinishedMessages.selectedAgain,
  changed: unfinishedMessages.changedSince,
  none: null,
};

/** Why Continue Upload could not open a file through its kept handle, and what to do. */
export const REOPEN_NOTE: Record<ReopenProblem, MessageDescriptor> = {
  denied: unfinishedMessages.denied,
  missing: unfinishedMessages.missing,
  changed: unfinishedMessages.changed,
};

function pathOf(entry: QueueEntry): string {
  return entry.relativePath === '.' ? entry.name : `${entry.relativePath}/${entry.name}`;
}

/** The entry's note after its sizes (' · ' and the note), or '' when there is none. */
function noteOf(entry: QueueEntry, queued: readonly QueuedFile[], problems: ReadonlyMap<string, ReopenProblem>, intl: IntlShape): string {
  const match = matchOf(entry, queued);
  const problem = problems.get(entry.id);
  const note = match === 'none' && problem ? REOPEN_NOTE[problem] : MATCH_NOTE[match];
  return note ? ` · ${intl.formatMessage(note)}` : '';
}

/**
 * The server's abandon time from the link's status (already loaded by the page): `known` once the
 * status has answered, `ms` undefined when it does not say. Entries are listed (and purged) only
 * then: purging by the 24 h default first would delete entries a server that keeps uploads longer
 * could still continue.
 */
function useServerAbandonTime(): { known: boolean; ms: number | undefined } {
  const linkToken = useAppSelector(selectUploadStepState).linkToken;
  const { data, isSuccess, isError } = useGetUploadLinkStatusQuery(linkToken ?? '', { skip: linkToken === null });
  return { known: isSuccess || isError, ms: data?.upload_abandon_hours === undefined ? undefined : data.upload_abandon_hours * HOUR_MS };
}

/**
 * The large files an earlier visit (a reload, a closed tab) left unfinished on this link, with how
 * much the server holds. Selecting the same files or folder again continues them (the engine
 * matches by path, name, size and date); where the files were picked through File System Access
 * handles, Continue Upload opens them again after one permission prompt (resume/reopenSources.ts);
 * Discard gives one up.
 */
export function UnfinishedUploads({ controller, refreshKey, disabled }: { controller: UploadController; refreshKey: unknown; disabled: boolean }) {
  const intl = useIntl();
  const [found, setEntries] = useState<QueueEntry[]>([]);
  const [delivered, setDelivered] = useState(0);
  const [reload, setReload] = useState(0);
  const [opening, setOpening] = useState(false);
  const [problems, setProblems] = useState<ReadonlyMap<string, ReopenProblem>>(new Map());
  const queued = useAppSelector(selectQueuedFiles);
  const { known: abandonTimeKnown, ms: abandonAfterMs } = useServerAbandonTime();
  const entries = listedEntries(found, queued, disabled);

  useEffect(() => {
    if (!abandonTimeKnown) return;
    let live = true;
    void Promise.all([controller.unfinishedUploads(abandonAfterMs), controller.deliveredBefore()]).then(([unfinished, stored]) => {
      if (!live) return;
      setEntries(unfinished);
      setDelivered(stored);
    });
    return () => {
      live = false;
    };
  }, [controller, refreshKey, reload, abandonTimeKnown, abandonAfterMs]);

  /** The click's user activation lets the browser ask for read permission again. */
  async function continueUpload(): Promise<void> {
    setOpening(true);
    try {
      const reopened = await reopenSources(entries);
      setProblems(reopened.problems);
      if (reopened.files.length === 0) return;
      await controller.addFiles(rememberSources(reopened.files));
      await controller.startUpload();
    } finally {
      setOpening(false);
    }
  }

  if (entries.length === 0) return null;
  const reopenable = entries.some((entry) => entry.source !== undefined && !problems.has(entry.id));
  const deliveredNote = delivered > 0 ? ` ${intl.formatMessage(unfinishedMessages.delivered, { count: delivered })}` : null;
  const sizes = (entry: QueueEntry) =>
    intl.formatMessage(unfinishedMessages.stored, { stored: formatBytes(entry.confirmedOffset, 'wholeFrom100'), total: formatBytes(entry.encryptedLength, 'wholeFrom100') }) +
    noteOf(entry, queued, problems, intl);
  return (
    <Alert severity="info" component="section" aria-label={intl.formatMessage(unfinishedMessages.region)} data-testid="unfinished-uploads">
      <AlertTitle>{intl.formatMessage(unfinishedMessages.title, { count: entries.length })}</AlertTitle>
      <Typography variant="body2">
        {intl.formatMessage(reopenable ? unfinishedMessages.continueHint : unfinishedMessages.reselectHint)}
        {deliveredNote}
      </Typography>
      {reopenable && (
        <Button variant="contained" size="small" sx={{ mt: 1 }} disabled={disabled || opening} onClick={() => void continueUpload()}>
          {intl.formatMessage(opening ? unfinishedMessages.opening : unfinishedMessages.continueUpload)}
        </Button>
      )}
      <List dense aria-label={intl.formatMessage(unfinishedMessages.files)}>
        {entries.map((entry) => (
          <ListItem
            key={entry.id}
            aria-label={entry.name}
            data-match={matchOf(entry, queued)}
            data-reopen={problems.get(entry.id) ?? (entry.source ? 'ready' : 'reselect')}
            disableGutters
            secondaryAction={
              <Button
                size="small"
                disabled={disabled}
                onClick={() => void controller.discardUnfinished(entry.id).then(() => setReload((n) => n + 1))}
              >
                {intl.formatMessage(unfinishedMessages.discard)}
              </Button>
            }
          >
            <ListItemText
              primary={pathOf(entry)}
              secondary={sizes(entry)}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere', pr: 8 } } }}
            />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}
