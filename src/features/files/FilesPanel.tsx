// The folder's files: toolbar, tree, download progress and the dialogs (spec section 2). Selection,
// filter, sort and expanded directories are this screen's own state; the file list comes from
// RTK Query and reloads after downloads and deletes.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { FileRecord } from '../../api/filesApi.ts';
import type { Folder } from '../../api/types.ts';
import { displayTitle } from '../../lib/folderDisplay.ts';
import { useNotifier } from '../../app/notifier.ts';
import { DeleteFilesDialog } from './DeleteFilesDialog.tsx';
import { DownloadStatus } from './DownloadStatus.tsx';
import { ExportEncryptedButton } from './ExportEncryptedButton.tsx';
import { directoryZipName, folderZipName } from './downloadNames.ts';
import { FolderIcon } from '../../app/icons.tsx';
import { DEFAULT_FILE_SORT, type FileSort } from './fileSort.ts';
import { buildFileTree, type DirectoryNode, type FileNode } from './fileTree.ts';
import { FileTreeTable } from './FileTreeTable.tsx';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';
import { FilesToolbar } from './FilesToolbar.tsx';
import { pageMessages } from './messages.ts';
import { checkState, pruneSelection, selectableFiles, selectedFiles, toggleFile, toggleGroup } from './selection.ts';
import { useDeleteFiles } from './useDeleteFiles.ts';
import { useFileDownloads } from './useFileDownloads.tsx';
import type { DownloadTarget } from './saveDestination.ts';

interface FilesPanelProps {
  folder: Folder;
  files: FileRecord[];
  /**
   * The download-links feature's 'Create Download Link...' toolbar button (src/features/links),
   * given the current selection and the unlock function; see FolderFilesScreen.
   */
  renderLinkAction?: (context: LinkActionContext) => ReactNode;
}

export interface LinkActionContext {
  folderId: number;
  selectedFiles: FileRecord[];
  /** The 'Login Password Required' dialog of this screen (spec section 4: create link needs the key), then the opener of file keys. */
  requestKeyOpener: ReturnType<typeof useFileDownloads>['requestKeyOpener'];
  disabled: boolean;
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <Box sx={{ py: 7, textAlign: 'center', borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ color: 'secondary.main', mb: 1, '& svg': { fontSize: 40 } }}>
        <FolderIcon />
      </Box>
      <Typography color="text.secondary">{filtered ? FILES_MESSAGES.filterEmpty : FILES_MESSAGES.folderEmpty}</Typography>
    </Box>
  );
}

export function FilesPanel({ folder, files, renderLinkAction }: FilesPanelProps) {
  const intl = useIntl();
  const notify = useNotifier();
  const [neverDownloadedOnly, setNeverDownloadedOnly] = useState(false);
  const [selection, setSelection] = useState<ReadonlySet<number>>(new Set());
  const [sort, setSort] = useState<FileSort>(DEFAULT_FILE_SORT);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const downloads = useFileDownloads(folder.id, folder.my_role === 'owner');
  const deletion = useDeleteFiles(folder.id, (deleted) => setSelection((current) => new Set([...current].filter((id) => !deleted.includes(id)))));

  const root = useMemo(() => buildFileTree(files), [files]);
  // Ids that no longer exist (deleted elsewhere, reloaded list) or that the filter hides never count.
  const selected = useMemo(() => pruneSelection(selection, files, neverDownloadedOnly), [selection, files, neverDownloadedOnly]);
  const selectable = selectableFiles(files, neverDownloadedOnly);
  const title = displayTitle(folder.title);
  const busy = downloads.active !== null || deletion.deleting;

  function download(target: DownloadTarget) {
    void downloads.download(target);
  }

  function downloadFiles(list: readonly FileRecord[], zipName: string) {
    if (list.length === 1) download({ files: list, zipName: null, label: list[0]!.original_filename });
    else download({ files: list, zipName, label: zipName });
  }

  function downloadSelected() {
    const list = selectedFiles(files, selected, neverDownloadedOnly);
    if (list.length === 0) {
      notify.warning(FILES_MESSAGES.noSelection);
      return;
    }
    downloadFiles(list, folderZipName(folder.title));
  }

  function downloadDirectory(directory: DirectoryNode) {
    const list = selectableFiles(directory.descendants, neverDownloadedOnly);
    if (list.length === 0) {
      notify.info(FILES_MESSAGES.directoryNoMatch(directory.path));
      return;
    }
    const zipName = directoryZipName(folder.title, directory.path);
    download({ files: list, zipName, label: zipName });
  }

  function toggleExpanded(path: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  }

  function toggleFilter() {
    // Files the filter hides leave the selection for good, so no hidden file is acted on later.
    setSelection(pruneSelection(selection, files, !neverDownloadedOnly));
    setNeverDownloadedOnly(!neverDownloadedOnly);
  }

  const toolbar = (
    <FilesToolbar
      selectedCount={selected.size}
      selectableCount={selectable.length}
      allState={checkState(files, selected, neverDownloadedOnly)}
      neverDownloadedOnly={neverDownloadedOnly}
      disabled={busy}
      onToggleAll={() => setSelection(toggleGroup(files, selected, neverDownloadedOnly))}
      onToggleFilter={toggleFilter}
      onDownloadSelected={downloadSelected}
      onDownloadAll={() => downloadFiles(selectable, folderZipName(folder.title))}
      onDeleteSelected={folder.my_role === 'reader' ? undefined : () => deletion.request([...selected])}
      exportAction={
        <ExportEncryptedButton
          folderId={folder.id}
          files={files}
          chosen={selected.size > 0 ? selectedFiles(files, selected, neverDownloadedOnly) : selectable}
          hasSelection={selected.size > 0}
          disabled={busy}
        />
      }
      linkAction={renderLinkAction?.({
        folderId: folder.id,
        selectedFiles: selectedFiles(files, selected, neverDownloadedOnly),
        requestKeyOpener: downloads.requestKeyOpener,
        disabled: busy,
      })}
    />
  );

  return (
    <Box component="section" aria-label={intl.formatMessage(pageMessages.region, { title })}>
      <DownloadStatus running={downloads.active} onCancel={downloads.cancel} />
      {files.length === 0 || selectable.length === 0 ? (
        <Paper variant="outlined">
          {toolbar}
          <EmptyState filtered={files.length > 0} />
        </Paper>
      ) : (
        <FileTreeTable
          root={root}
          sort={sort}
          onSort={setSort}
          toolbar={toolbar}
          selected={selected}
          neverDownloadedOnly={neverDownloadedOnly}
          expanded={expanded}
          disabled={busy}
          retentionDays={folder.retention_days}
          onToggleExpanded={toggleExpanded}
          onToggleFile={(id) => setSelection(toggleFile(id, selected))}
          onToggleDirectory={(directory) => setSelection(toggleGroup(directory.descendants, selected, neverDownloadedOnly))}
          onDownloadFile={(node: FileNode) => download({ files: [node.file], zipName: null, label: node.name })}
          onDownloadDirectory={downloadDirectory}
        />
      )}
      <DeleteFilesDialog count={deletion.pending?.length ?? null} busy={deletion.deleting} onCancel={deletion.cancel} onConfirm={() => void deletion.confirm()} />
      {downloads.unlockDialog}
      {downloads.choiceDialog}
    </Box>
  );
}
