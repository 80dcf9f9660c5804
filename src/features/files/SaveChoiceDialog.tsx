import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { DownloadIcon, FolderOpenIcon } from '../../app/icons.tsx';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';
import { dialogMessages } from './messages.ts';

export type SaveChoice = 'folder' | 'zip';

interface ChoiceRequest {
  readonly fileCount: number;
  readonly zipName: string;
}

function ChoiceButton({ icon, title, detail, onClick, autoFocus }: { icon: ReactNode; title: string; detail: string; onClick(): void; autoFocus?: boolean }) {
  return (
    <ButtonBase
      onClick={onClick}
      autoFocus={autoFocus ?? false}
      aria-label={title}
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        justifyContent: 'flex-start',
        gap: 1.5,
        p: 2,
        width: '100%',
        textAlign: 'left',
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        '&:hover, &.Mui-focusVisible': { borderColor: 'secondary.main', bgcolor: '#f2f8f8' },
      }}
    >
      <Box sx={{ color: 'secondary.main', display: 'flex', pt: 0.25 }}>{icon}</Box>
      <Box>
        <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      </Box>
    </ButtonBase>
  );
}

/**
 * Where several files go, asked only where the browser can write to a folder (File System Access
 * API): into a folder the user picks, as real files and subfolders, or as one ZIP through the
 * browser's downloads. Resolves with the choice, or null when the dialog was cancelled.
 */
export function useSaveChoice(): { askSaveChoice(request: ChoiceRequest): Promise<SaveChoice | null>; choiceDialog: ReactNode } {
  const intl = useIntl();
  const titleId = useId();
  const [request, setRequest] = useState<ChoiceRequest | null>(null);
  const pending = useRef<((choice: SaveChoice | null) => void) | null>(null);

  const finish = useCallback((choice: SaveChoice | null) => {
    setRequest(null);
    const resolve = pending.current;
    pending.current = null;
    resolve?.(choice);
  }, []);

  const askSaveChoice = useCallback((next: ChoiceRequest) => {
    pending.current?.(null);
    return new Promise<SaveChoice | null>((resolve) => {
      pending.current = resolve;
      setRequest(next);
    });
  }, []);

  const choiceDialog = (
    <Dialog open={request !== null} onClose={() => finish(null)} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{request ? FILES_MESSAGES.saveChoiceTitle(request.fileCount) : ''}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <ChoiceButton icon={<FolderOpenIcon />} title={FILES_MESSAGES.saveToFolder} detail={FILES_MESSAGES.saveToFolderDetail} onClick={() => finish('folder')} autoFocus />
          <ChoiceButton icon={<DownloadIcon />} title={FILES_MESSAGES.downloadZip} detail={request ? FILES_MESSAGES.downloadZipDetail(request.zipName) : ''} onClick={() => finish('zip')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={() => finish(null)}>
          {intl.formatMessage(dialogMessages.cancel)}
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { askSaveChoice, choiceDialog };
}
