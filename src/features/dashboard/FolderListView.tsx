import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Folder, FolderListParams } from '../../api/types.ts';
import { FolderCards } from './FolderCards.tsx';
import { FolderTable } from './FolderTable.tsx';

/**
 * Below this width the table's eight columns do not fit (it would scroll sideways inside its box,
 * with the actions off-screen), so each folder becomes a card. docs/accessibility.md.
 */
export const FOLDER_CARDS_BELOW = 'lg';

interface FolderListViewProps {
  folders: Folder[];
  sort: FolderListParams;
  onSort(sort: FolderListParams): void;
  onDelete(folder: Folder): void;
}

/** The folders as a table on a wide screen, as cards on a narrow one. */
export function FolderListView(props: FolderListViewProps) {
  const theme = useTheme();
  // noSsr: the first render already knows the width, so a phone never flashes the table.
  const narrow = useMediaQuery(theme.breakpoints.down(FOLDER_CARDS_BELOW), { noSsr: true });
  return narrow ? <FolderCards {...props} /> : <FolderTable {...props} />;
}
