// The dashboard's folders on a narrow screen: one card per folder with everything the
// table's row shows (title, description, status, security, dates) and its actions, so nothing
// sits off-screen behind a sideways scroll. The table's sortable headers become one sort select.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import type { Folder, FolderListParams } from '../../api/types.ts';
import { TextLink } from '../../app/layout/links.tsx';
import { SortSelect } from '../../app/layout/SortSelect.tsx';
import { displayTitle, formatDateTime, formatExpiry } from '../../lib/folderDisplay.ts';
import { FOLDER_CARD_LABELS } from '../../lib/userTexts.ts';
import { folderStatus } from '../folders/index.ts';
import { FolderStorageUsage } from '../storage/index.ts';
import { FolderActions } from './FolderActions.tsx';
import { FolderStatusChip, NewFilesChip, SecurityHints, TeamChip } from './folderBadges.tsx';
import { sortableColumns } from './FolderTable.tsx';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

interface FolderCardsProps {
  folders: Folder[];
  sort: FolderListParams;
  onSort(sort: FolderListParams): void;
  onDelete(folder: Folder): void;
}

function DateLines({ folder }: { folder: Folder }) {
  const rows = [
    [FOLDER_CARD_LABELS.created, formatDateTime(folder.creation_date)],
    [FOLDER_CARD_LABELS.expires, formatExpiry(folder.expiration_date)],
    [FOLDER_CARD_LABELS.lastUpload, formatDateTime(folder.last_upload_time)],
  ] as const;
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25, typography: 'body2' }}>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {label}
          </Box>
          <Box component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function FolderCard({ folder, now, origin, onDelete }: { folder: Folder; now: number; origin: string; onDelete(folder: Folder): void }) {
  const titleId = useId();
  const title = displayTitle(folder.title);
  return (
    <Paper component="li" variant="outlined" aria-labelledby={titleId} data-folder-id={folder.id} sx={{ listStyle: 'none', p: 2 }}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h3" component="h2" id={titleId} sx={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
              <TextLink
                to="/folders/view/$folderId"
                params={{ folderId: folder.id }}
                underline="hover"
                sx={{ display: 'inline-block', minHeight: 24, fontStyle: title === folder.title ? 'normal' : 'italic' }}
              >
                {title}
              </TextLink>
            </Typography>
            {folder.description && (
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                {folder.description}
              </Typography>
            )}
          </Box>
          <Box sx={{ flexShrink: 0 }} aria-label={FOLDER_CARD_LABELS.status} role="group">
            <FolderStatusChip status={folderStatus(folder, now)} />
          </Box>
        </Stack>
        {(folder.my_role !== 'owner' || folder.is_team) && (
          <Box>
            <TeamChip folder={folder} />
          </Box>
        )}
        {folder.has_undownloaded_files && (
          <Box>
            <NewFilesChip />
          </Box>
        )}
        <DateLines folder={folder} />
        <FolderStorageUsage folder={folder} />
        <Box role="group" aria-label={FOLDER_CARD_LABELS.security}>
          <SecurityHints folder={folder} direction="row" />
        </Box>
        <FolderActions folder={folder} origin={origin} onDelete={onDelete} placement="card" />
      </Stack>
    </Paper>
  );
}

export function FolderCards({ folders, sort, onSort, onDelete }: FolderCardsProps) {
  const intl = useIntl();
  const now = Date.now();
  const origin = window.location.origin;
  return (
    <Stack spacing={2}>
      <Box sx={{ maxWidth: { sm: 320 } }}>
        <SortSelect
          columns={sortableColumns()}
          value={{ key: sort.sort_by, order: sort.sort_order }}
          onChange={({ key, order }) => onSort({ sort_by: key, sort_order: order })}
        />
      </Box>
      <Box
        component="ul"
        aria-label={intl.formatMessage(messages.folders)}
        sx={{ m: 0, p: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}
      >
        {folders.map((folder) => (
          <FolderCard key={folder.id} folder={folder} now={now} origin={origin} onDelete={onDelete} />
        ))}
      </Box>
    </Stack>
  );
}
