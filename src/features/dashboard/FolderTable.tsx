import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { useIntl } from 'react-intl';
import type { Folder, FolderListParams, FolderSortKey } from '../../api/types.ts';
import { STORAGE_TEXTS } from '../../lib/userTexts.ts';
import { t } from '../../i18n/language.ts';
import { FolderRow } from './FolderRow.tsx';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

/** The sortable columns with their names in the current language. */
export function sortableColumns(): ReadonlyArray<{ key: FolderSortKey; label: string }> {
  return [
    { key: 'title', label: t(messages.columnTitle) },
    { key: 'creation_date', label: t(messages.columnCreated) },
    { key: 'expiration_date', label: t(messages.columnExpires) },
    { key: 'last_upload_time', label: t(messages.columnLastUpload) },
  ];
}

/** Clicking the sorted column reverses it; another column starts A-Z for titles, newest first for dates. */
export function nextSort(current: FolderListParams, key: FolderSortKey): FolderListParams {
  if (current.sort_by === key) return { sort_by: key, sort_order: current.sort_order === 'asc' ? 'desc' : 'asc' };
  return { sort_by: key, sort_order: key === 'title' ? 'asc' : 'desc' };
}

interface FolderTableProps {
  folders: Folder[];
  sort: FolderListParams;
  onSort(sort: FolderListParams): void;
  onDelete(folder: Folder): void;
}

export function FolderTable({ folders, sort, onSort, onDelete }: FolderTableProps) {
  const intl = useIntl();
  const now = Date.now();
  const origin = window.location.origin;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table
        aria-label={intl.formatMessage(messages.folders)}
        sx={{
          '& th, & td': { px: 1.5 },
          '& th:first-of-type, & td:first-of-type': { pl: 2.5 },
          '& th': { fontWeight: 650, whiteSpace: 'nowrap', bgcolor: 'background.default', py: 1.5 },
        }}
      >
        <TableHead>
          <TableRow>
            {sortableColumns().map(({ key, label }) => (
              <TableCell key={key} sortDirection={sort.sort_by === key ? sort.sort_order : false}>
                <TableSortLabel
                  active={sort.sort_by === key}
                  direction={sort.sort_by === key ? sort.sort_order : 'asc'}
                  onClick={() => onSort(nextSort(sort, key))}
                >
                  {label}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell>{STORAGE_TEXTS.folderColumn}</TableCell>
            <TableCell>{intl.formatMessage(messages.columnStatus)}</TableCell>
            <TableCell>{intl.formatMessage(messages.columnSecurity)}</TableCell>
            <TableCell align="right">{intl.formatMessage(messages.columnActions)}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {folders.map((folder) => (
            <FolderRow key={folder.id} folder={folder} now={now} origin={origin} onDelete={onDelete} />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
