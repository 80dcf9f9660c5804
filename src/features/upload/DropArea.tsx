import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useIntl } from 'react-intl';
import { CloudUploadIcon, FileIcon, FolderIcon } from '../../app/icons.tsx';
import { collectDroppedFiles, entriesOf, filesFromInput } from './dropTraversal.ts';
import type { CandidateFile } from './fileSelection.ts';
import { dropMessages } from './messages.ts';
import { canPickHandles, dropHandlesOf, filesFromDropHandles, pickFileHandles, pickFolderHandle } from './filePickers.ts';

interface DropAreaProps {
  disabled: boolean;
  onFiles(files: CandidateFile[]): void;
}

/**
 * Where files and whole folders come in: drag and drop (folders are walked, keeping their
 * structure), or the two pickers. Disabled while an upload runs and before the gates are passed.
 * Where the browser has the File System Access API the buttons open its dialogs and a drop is read
 * through handles (filePickers.ts), so an interrupted upload can continue without a new selection;
 * the hidden inputs stay for other browsers (and for a dialog that fails).
 */
export function DropArea({ disabled, onFiles }: DropAreaProps) {
  const intl = useIntl();
  const [over, setOver] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  // React has no prop for these non-standard attributes; without them the picker selects files only.
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);

  function dragOver(event: DragEvent) {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    if (!disabled) setOver(true);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    // Handles and entries must be taken now: the browser empties the DataTransfer when this handler returns.
    const handles = dropHandlesOf(event.dataTransfer);
    const dropped = entriesOf(event.dataTransfer);
    void (async () => {
      const viaHandles = handles ? await handles.then(filesFromDropHandles).catch(() => null) : null;
      onFiles(viaHandles ?? (await collectDroppedFiles(dropped)));
    })();
  }

  /** The File System Access dialog where there is one (a closed dialog adds nothing), else the input. */
  function choose(pick: () => Promise<CandidateFile[]>, input: HTMLInputElement | null) {
    if (!canPickHandles()) {
      input?.click();
      return;
    }
    void pick().then(
      (files) => files.length > 0 && onFiles(files),
      (error: unknown) => {
        console.warn('upload: the file dialog failed; using the plain file input instead', error);
        input?.click();
      },
    );
  }

  function picked(input: HTMLInputElement | null) {
    if (!input) return;
    onFiles(filesFromInput(input.files));
    input.value = '';
  }

  return (
    <Box
      data-testid="drop-area"
      aria-disabled={disabled}
      onDragOver={dragOver}
      onDragEnter={dragOver}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      sx={{
        border: '2px dashed',
        borderColor: over ? 'secondary.main' : 'divider',
        bgcolor: over ? 'rgba(42,127,122,0.06)' : disabled ? 'action.hover' : 'background.default',
        borderRadius: 2,
        px: 3,
        py: 4,
        textAlign: 'center',
        opacity: disabled ? 0.6 : 1,
        transition: 'border-color 120ms, background-color 120ms',
      }}
    >
      <CloudUploadIcon sx={{ fontSize: 44, color: disabled ? 'text.disabled' : 'secondary.main' }} />
      <Typography variant="h3" sx={{ mt: 1 }}>
        {intl.formatMessage(disabled ? dropMessages.paused : dropMessages.dropHere)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        {intl.formatMessage(dropMessages.limits)}
      </Typography>
      <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" startIcon={<FileIcon />} disabled={disabled} onClick={() => choose(pickFileHandles, filesInput.current)}>
          {intl.formatMessage(dropMessages.selectFiles)}
        </Button>
        <Button variant="outlined" startIcon={<FolderIcon />} disabled={disabled} onClick={() => choose(pickFolderHandle, folderInput.current)}>
          {intl.formatMessage(dropMessages.selectFolder)}
        </Button>
      </Stack>
      <input ref={filesInput} type="file" multiple hidden data-testid="file-input" onChange={(event) => picked(event.currentTarget)} />
      <input ref={folderInput} type="file" multiple hidden data-testid="folder-input" onChange={(event) => picked(event.currentTarget)} />
    </Box>
  );
}
