import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { SortSelect } from '../../app/layout/SortSelect.tsx';
import type { DirectoryNode, FileNode } from './fileTree.ts';
import type { FileSort, FileSortKey } from './fileSort.ts';
import { nextFileSort } from './fileSort.ts';
import { TreeLevel, type TreeActions } from './FileTreeRows.tsx';
import { treeMessages } from './messages.ts';

const SORTABLE: ReadonlyArray<{ key: FileSortKey; label: MessageDescriptor }> = [
  { key: 'name', label: treeMessages.name },
  { key: 'upload_time', label: treeMessages.uploaded },
  { key: 'last_downloaded_admin', label: treeMessages.lastDownloaded },
];

/**
 * Below this width the dates leave their columns (they move under each name) and the sort headers
 * give way to a sort select, so name, size and action fit a phone without sideways scrolling.
 */
export const COMPACT_TREE_BELOW = 'md';

interface FileTreeTableProps extends Omit<TreeActions, 'compact'> {
  root: DirectoryNode;
  sort: FileSort;
  onSort(sort: FileSort): void;
  /** Shown above the rows (the toolbar), inside the same card. */
  toolbar: ReactNode;
}

export type { FileNode };

export function FileTreeTable({ root, sort, onSort, toolbar, ...rest }: FileTreeTableProps) {
  const intl = useIntl();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down(COMPACT_TREE_BELOW), { noSsr: true });
  const actions: TreeActions = { ...rest, compact };
  const sortable = SORTABLE.map(({ key, label }) => ({ key, label: intl.formatMessage(label) }));
  const columns = compact ? sortable.slice(0, 1) : sortable;
  return (
    <TableContainer component={Paper} variant="outlined">
      {toolbar}
      {compact && (
        <Box sx={{ px: 1.5, pb: 1.5 }}>
          <SortSelect columns={sortable} value={sort} onChange={onSort} />
        </Box>
      )}
      <Table
        aria-label={intl.formatMessage(treeMessages.table)}
        size="small"
        sx={{
          '& th, & td': { px: compact ? 1 : 1.5 },
          // On a narrow screen the columns get fixed widths and the name takes the rest, wrapping
          // inside it, so a long name or a deep folder can never push Size and Action off-screen.
          ...(compact && {
            tableLayout: 'fixed',
            '& th.MuiTableCell-paddingCheckbox, & td.MuiTableCell-paddingCheckbox': { width: 44, pl: '4px !important', pr: 0 },
            '& thead th:nth-of-type(3)': { width: 84 },
            '& thead th:nth-of-type(4)': { width: 56 },
            '& th:last-of-type, & td:last-of-type': { pl: '4px', pr: '4px !important' },
          }),
          '& th': { fontWeight: 650, whiteSpace: 'nowrap', bgcolor: 'background.default', py: 1.25 },
          '& td': { py: 0.75 },
          opacity: actions.disabled ? 0.7 : 1,
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" sx={{ pl: '12px !important' }} />
            {columns.map(({ key, label }) => (
              <TableCell key={key} sortDirection={sort.key === key ? sort.order : false}>
                <TableSortLabel active={sort.key === key} direction={sort.key === key ? sort.order : 'asc'} onClick={() => onSort(nextFileSort(sort, key))}>
                  {label}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell align="right">{intl.formatMessage(treeMessages.size)}</TableCell>
            <TableCell align="right" sx={{ pr: '20px !important' }}>
              {intl.formatMessage(treeMessages.action)}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          <TreeLevel directory={root} depth={0} sort={sort} {...actions} />
        </TableBody>
      </Table>
    </TableContainer>
  );
}
