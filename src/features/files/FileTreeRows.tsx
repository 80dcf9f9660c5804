import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import { t } from '../../i18n/language.ts';
import { formatDateTime, neverText } from '../../lib/folderDisplay.ts';
import { ChevronRightIcon, DescriptionIcon, DownloadIcon, ExpandMoreIcon, FolderIcon, FolderOpenIcon } from '../../app/icons.tsx';
import type { FileSort } from './fileSort.ts';
import { sortDirectories, sortFiles } from './fileSort.ts';
import type { DirectoryNode, FileNode } from './fileTree.ts';
import { COMPACT_TREE_LABELS, FILES_MESSAGES, formatSizeKb } from '../../lib/userTexts.ts';
import { directoryCheckState, isSelectable } from './selection.ts';
import { treeMessages } from './messages.ts';
import { FileDeletionDate } from '../storage/index.ts';

export interface TreeActions {
  selected: ReadonlySet<number>;
  neverDownloadedOnly: boolean;
  expanded: ReadonlySet<string>;
  /** Busy flags disable the list. */
  disabled: boolean;
  /** The folder's retention: each file shows when it is deleted (null: files are kept). */
  retentionDays: number | null;
  onToggleExpanded(path: string): void;
  onToggleFile(fileId: number): void;
  onToggleDirectory(directory: DirectoryNode): void;
  onDownloadFile(node: FileNode): void;
  onDownloadDirectory(directory: DirectoryNode): void;
  /** A narrow screen (FileTreeTable): no date columns (the dates go under the name), icon-only Download buttons. */
  compact: boolean;
}

/** Theme spacing units per level. */
const indentOf = (compact: boolean) => (compact ? 2 : 3);

/** 'Download' as text on a wide screen, as an icon (same name) where every pixel goes to the names. */
function DownloadAction({ compact, label, disabled, onClick }: { compact: boolean; label: string; disabled: boolean; onClick(): void }) {
  const intl = useIntl();
  if (compact) {
    return (
      <IconButton size="small" color="primary" disabled={disabled} onClick={onClick} aria-label={label}>
        <DownloadIcon fontSize="small" />
      </IconButton>
    );
  }
  return (
    <Button size="small" disabled={disabled} onClick={onClick} aria-label={label}>
      {intl.formatMessage(treeMessages.download)}
    </Button>
  );
}

function totalSize(directory: DirectoryNode): number {
  return directory.descendants.reduce((sum, file) => sum + file.file_size, 0);
}

function countText(directory: DirectoryNode, neverDownloadedOnly: boolean): string {
  const all = directory.descendants.length;
  if (!neverDownloadedOnly) return t(treeMessages.fileCount, { count: all });
  const matching = directory.descendants.filter((file) => isSelectable(file, true)).length;
  return t(treeMessages.matchingCount, { matching, count: all });
}

function DirectoryRow({ directory, depth, ...actions }: TreeActions & { directory: DirectoryNode; depth: number }) {
  const intl = useIntl();
  const open = actions.expanded.has(directory.path);
  const state = directoryCheckState(directory, actions.selected, actions.neverDownloadedOnly);
  return (
    <TableRow hover data-directory={directory.path} sx={{ bgcolor: '#fafbfc' }}>
      <TableCell padding="checkbox" sx={{ pl: '12px !important' }}>
        <Checkbox
          size="small"
          checked={state === 'checked'}
          indeterminate={state === 'indeterminate'}
          disabled={actions.disabled}
          onChange={() => actions.onToggleDirectory(directory)}
          slotProps={{ input: { 'aria-label': intl.formatMessage(treeMessages.selectFolder, { path: directory.path }) } }}
        />
      </TableCell>
      <TableCell colSpan={actions.compact ? 1 : 3}>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: actions.compact ? 'wrap' : 'nowrap', gap: 0.75, pl: depth * indentOf(actions.compact) }}>
          <IconButton
            size="small"
            aria-label={intl.formatMessage(open ? treeMessages.collapse : treeMessages.expand, { path: directory.path })}
            aria-expanded={open}
            onClick={() => actions.onToggleExpanded(directory.path)}
            sx={{ ml: -0.75 }}
          >
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
          <Box sx={{ color: 'secondary.main', display: 'flex' }}>{open ? <FolderOpenIcon fontSize="small" /> : <FolderIcon fontSize="small" />}</Box>
          <Typography variant="body2" sx={{ fontWeight: 600, cursor: 'pointer', wordBreak: 'break-word', overflowWrap: 'anywhere', minWidth: 0 }} onClick={() => actions.onToggleExpanded(directory.path)}>
            {directory.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {countText(directory, actions.neverDownloadedOnly)}
          </Typography>
        </Box>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
        {formatSizeKb(totalSize(directory))}
      </TableCell>
      <TableCell align="right" sx={{ pr: '12px !important' }}>
        {directory.descendants.length > 0 && (
          <DownloadAction
            compact={actions.compact}
            label={intl.formatMessage(treeMessages.downloadFolder, { path: directory.path })}
            disabled={actions.disabled}
            onClick={() => actions.onDownloadDirectory(directory)}
          />
        )}
      </TableCell>
    </TableRow>
  );
}

function FileRow({ node, depth, ...actions }: TreeActions & { node: FileNode; depth: number }) {
  const intl = useIntl();
  const { file } = node;
  const checked = actions.selected.has(file.id);
  return (
    <TableRow hover selected={checked} data-file-id={file.id}>
      <TableCell padding="checkbox" sx={{ pl: '12px !important' }}>
        <Checkbox
          size="small"
          checked={checked}
          disabled={actions.disabled}
          onChange={() => actions.onToggleFile(file.id)}
          slotProps={{ input: { 'aria-label': intl.formatMessage(treeMessages.selectFile, { path: node.directory ? `${node.directory}/${node.name}` : node.name }) } }}
        />
      </TableCell>
      <TableCell sx={{ minWidth: actions.compact ? 0 : 220 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, pl: depth * indentOf(actions.compact) + (depth > 0 ? 4 : 0) }}>
          <Box sx={{ color: 'text.secondary', display: 'flex' }}>
            <DescriptionIcon fontSize="small" />
          </Box>
          <Typography variant="body2" sx={{ wordBreak: 'break-word', overflowWrap: 'anywhere', minWidth: 0 }}>
            {node.name}
          </Typography>
          {node.duplicate && (
            <Tooltip title={intl.formatMessage(treeMessages.duplicateHint)}>
              <Chip size="small" label={FILES_MESSAGES.duplicate} color="warning" variant="outlined" sx={{ height: 20, fontSize: '0.7rem' }} />
            </Tooltip>
          )}
        </Box>
        {actions.compact && <CompactDates file={file} retentionDays={actions.retentionDays} indent={depth * indentOf(true) + (depth > 0 ? 4 : 0)} />}
      </TableCell>
      {!actions.compact && (
        <>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <Typography variant="body2">{formatDateTime(file.upload_time)}</Typography>
            <FileDeletionDate uploadTime={file.upload_time} retentionDays={actions.retentionDays} />
          </TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            {file.last_downloaded_admin === null ? (
              <Chip size="small" label={neverText()} color="secondary" variant="outlined" sx={{ height: 20, fontSize: '0.75rem' }} />
            ) : (
              <Typography variant="body2">{formatDateTime(file.last_downloaded_admin)}</Typography>
            )}
          </TableCell>
        </>
      )}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatSizeKb(file.file_size)}
      </TableCell>
      <TableCell align="right" sx={{ pr: '12px !important' }}>
        <DownloadAction compact={actions.compact} label={intl.formatMessage(treeMessages.downloadFile, { name: node.name })} disabled={actions.disabled} onClick={() => actions.onDownloadFile(node)} />
      </TableCell>
    </TableRow>
  );
}

/** The date columns' content under the name, on a narrow screen. */
function CompactDates({ file, retentionDays, indent }: { file: FileNode['file']; retentionDays: number | null; indent: number }) {
  const intl = useIntl();
  const downloaded = file.last_downloaded_admin === null ? neverText() : formatDateTime(file.last_downloaded_admin);
  return (
    <Box sx={{ pl: indent, mt: 0.25 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {intl.formatMessage(treeMessages.compactDate, { label: COMPACT_TREE_LABELS.uploaded, date: formatDateTime(file.upload_time) })}
        <br />
        {intl.formatMessage(treeMessages.compactDate, { label: COMPACT_TREE_LABELS.lastDownloaded, date: downloaded })}
      </Typography>
      <FileDeletionDate uploadTime={file.upload_time} retentionDays={retentionDays} />
    </Box>
  );
}

function EmptyRow({ depth, compact }: { depth: number; compact: boolean }) {
  return (
    <TableRow>
      <TableCell />
      <TableCell colSpan={compact ? 3 : 5}>
        <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic', pl: depth * indentOf(compact) + 4 }}>
          {FILES_MESSAGES.directoryEmpty}
        </Typography>
      </TableCell>
    </TableRow>
  );
}

/** One directory's children: its directories first, then its files (filtered and sorted). */
export function TreeLevel({ directory, depth, sort, ...actions }: TreeActions & { directory: DirectoryNode; depth: number; sort: FileSort }) {
  const files = sortFiles(
    directory.files.filter((node) => isSelectable(node.file, actions.neverDownloadedOnly)),
    sort,
  );
  const directories = sortDirectories(directory.directories, sort);
  if (depth > 0 && files.length === 0 && directories.length === 0) return <EmptyRow depth={depth} compact={actions.compact} />;
  return (
    <>
      {directories.map((child) => (
        <DirectoryBranch key={child.path} directory={child} depth={depth} sort={sort} {...actions} />
      ))}
      {files.map((node) => (
        <FileRow key={node.file.id} node={node} depth={depth} {...actions} />
      ))}
    </>
  );
}

function DirectoryBranch({ directory, depth, sort, ...actions }: TreeActions & { directory: DirectoryNode; depth: number; sort: FileSort }) {
  return (
    <>
      <DirectoryRow directory={directory} depth={depth} {...actions} />
      {actions.expanded.has(directory.path) && <TreeLevel directory={directory} depth={depth + 1} sort={sort} {...actions} />}
    </>
  );
}
