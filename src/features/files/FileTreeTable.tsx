import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { ReactNode } from 'react';
import type { DirectoryNode, FileNode } from './fileTree.ts';
import type { FileSort, FileSortKey } from './fileSort.ts';
import { nextFileSort } from './fileSort.ts';
import { TreeLevel, type TreeActions } from './FileTreeRows.tsx';

const SORTABLE: ReadonlyArray<{ key: FileSortKey; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'upload_time', label: 'Uploaded' },
  { key: 'last_downloaded_admin', label: 'Last Downloaded' },
];

interface FileTreeTableProps extends TreeActions {
  root: DirectoryNode;
  sort: FileSort;
  onSort(sort: FileSort): void;
  /** Shown above the rows (the toolbar), inside the same card. */
  toolbar: ReactNode;
}

export type { FileNode };

export function FileTreeTable({ root, sort, onSort, toolbar, ...actions }: FileTreeTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined">
      {toolbar}
      <Table
        aria-label="Files"
        size="small"
        sx={{
          '& th, & td': { px: 1.5 },
          '& th': { fontWeight: 650, whiteSpace: 'nowrap', bgcolor: 'background.default', py: 1.25 },
          '& td': { py: 0.75 },
          opacity: actions.disabled ? 0.7 : 1,
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" sx={{ pl: '12px !important' }} />
            {SORTABLE.map(({ key, label }) => (
              <TableCell key={key} sortDirection={sort.key === key ? sort.order : false}>
                <TableSortLabel active={sort.key === key} direction={sort.key === key ? sort.order : 'asc'} onClick={() => onSort(nextFileSort(sort, key))}>
                  {label}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell align="right">Size</TableCell>
            <TableCell align="right" sx={{ pr: '20px !important' }}>
              Action
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
