// The dashboard's folder list: loading text, 'Error:' banner, empty state or the table, plus the
// delete confirmation. Sorting happens on the server (sort_by/sort_order); the previous rows stay
// on screen while a new order loads.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useDeleteFolderMutation, useListFoldersQuery } from '../../api/foldersApi.ts';
import { describeApiError } from '../../api/errors.ts';
import type { Folder, FolderListParams } from '../../api/types.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { FolderIcon } from '../../app/icons.tsx';
import { ButtonLink } from '../../app/layout/links.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { DeleteFolderDialog } from './DeleteFolderDialog.tsx';
import { displayTitle } from '../../lib/folderDisplay.ts';
import { FolderListView } from './FolderListView.tsx';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

export const DEFAULT_FOLDER_SORT: FolderListParams = { sort_by: 'creation_date', sort_order: 'desc' };

function EmptyState() {
  const intl = useIntl();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 4, sm: 6 }, textAlign: 'center' }}>
      <Box sx={{ color: 'secondary.main', mb: 1.5, '& svg': { fontSize: 44 } }}>
        <FolderIcon />
      </Box>
      <Typography variant="h2" sx={{ mb: 1 }}>
        {intl.formatMessage(messages.emptyTitle)}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {intl.formatMessage(messages.emptyHint)}
      </Typography>
      <ButtonLink to="/folders/new" variant="contained">
        {intl.formatMessage(messages.emptyCreate)}
      </ButtonLink>
    </Paper>
  );
}

export function FolderListSection() {
  const intl = useIntl();
  const notify = useNotifier();
  const [sort, setSort] = useState<FolderListParams>(DEFAULT_FOLDER_SORT);
  const { data: folders, error, isLoading, isFetching } = useListFoldersQuery(sort);
  const [deleteFolder, { isLoading: deleting }] = useDeleteFolderMutation();
  const [pendingDelete, setPendingDelete] = useState<Folder | null>(null);

  async function confirmDelete() {
    if (!pendingDelete) return;
    const title = displayTitle(pendingDelete.title);
    try {
      await deleteFolder(pendingDelete.id).unwrap();
      notify.success(intl.formatMessage(messages.deleted, { title }));
    } catch (cause) {
      notify.error(cause);
    } finally {
      setPendingDelete(null);
    }
  }

  let content;
  if (isLoading) content = <LoadingMessage text={intl.formatMessage(messages.loading)} />;
  else if (error && !folders) content = null;
  else if (!folders || folders.length === 0) content = <EmptyState />;
  else content = <FolderListView folders={folders} sort={sort} onSort={setSort} onDelete={setPendingDelete} />;

  return (
    <Box component="section" aria-label={intl.formatMessage(messages.section)}>
      {error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {intl.formatMessage(messages.error, { message: describeApiError(error).message })}
        </Alert>
      )}
      <Box sx={{ height: 4, mb: 0.5 }}>{isFetching && !isLoading && <LinearProgress aria-label={intl.formatMessage(messages.refreshing)} />}</Box>
      {content}
      <DeleteFolderDialog
        title={pendingDelete ? displayTitle(pendingDelete.title) : null}
        busy={deleting}
        onCancel={() => setPendingDelete(null)}
        onConfirm={confirmDelete}
      />
    </Box>
  );
}
