import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Folder } from '../../api/types.ts';
import { TextLink } from '../../app/layout/links.tsx';
import { folderStatus } from '../folders/index.ts';
import { FolderStatusChip, NewFilesChip, SecurityHints, TeamChip } from './folderBadges.tsx';
import { FolderActions } from './FolderActions.tsx';
import { FolderStorageUsage } from '../storage/index.ts';
import { displayTitle, formatDateTime, formatExpiry } from '../../lib/folderDisplay.ts';

// Wide enough for the time ("12:41:41 PM"), too narrow for date and time together, so the
// locale's own separator (", ") is where the line breaks.
function DateCell({ text }: { text: string }) {
  return (
    <TableCell>
      <Typography variant="body2" sx={{ width: 96 }}>
        {text}
      </Typography>
    </TableCell>
  );
}

interface FolderRowProps {
  folder: Folder;
  now: number;
  origin: string;
  onDelete(folder: Folder): void;
}

export function FolderRow({ folder, now, origin, onDelete }: FolderRowProps) {
  const title = displayTitle(folder.title);
  const status = folderStatus(folder, now);
  return (
    <TableRow hover data-folder-id={folder.id}>
      <TableCell sx={{ minWidth: 150, maxWidth: 220 }}>
        <TextLink
          to="/folders/view/$folderId"
          params={{ folderId: folder.id }}
          underline="hover"
          sx={{ fontWeight: 600, fontStyle: title === folder.title ? 'normal' : 'italic', overflowWrap: 'break-word', hyphens: 'auto' }}
        >
          {title}
        </TextLink>
        {folder.description && (
          <Typography variant="body2" color="text.secondary" noWrap title={folder.description}>
            {folder.description}
          </Typography>
        )}
        {(folder.my_role !== 'owner' || folder.is_team) && (
          <Box sx={{ mt: 0.5 }}>
            <TeamChip folder={folder} />
          </Box>
        )}
        {folder.has_undownloaded_files && (
          <Box sx={{ mt: 0.5 }}>
            <NewFilesChip />
          </Box>
        )}
      </TableCell>
      <DateCell text={formatDateTime(folder.creation_date)} />
      <DateCell text={formatExpiry(folder.expiration_date)} />
      <DateCell text={formatDateTime(folder.last_upload_time)} />
      <TableCell>
        <FolderStorageUsage folder={folder} />
      </TableCell>
      <TableCell>
        <FolderStatusChip status={status} />
      </TableCell>
      <TableCell>
        <SecurityHints folder={folder} />
      </TableCell>
      <TableCell align="right">
        <FolderActions folder={folder} origin={origin} onDelete={onDelete} />
      </TableCell>
    </TableRow>
  );
}
