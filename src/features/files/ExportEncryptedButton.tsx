// The files toolbar's 'Export Encrypted' button (see encryptedExport.ts): the selection when there
// is one, otherwise every file shown, saved by the browser as the server's export ZIP.
import Button from '@mui/material/Button';
import { useIntl } from 'react-intl';
import type { FileRecord } from '../../api/filesApi.ts';
import { LockIcon } from '../../app/icons.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { exportChoice, MAX_EXPORT_IDS, startBrowserDownload } from './encryptedExport.ts';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';
import { toolbarMessages } from './messages.ts';

interface ExportEncryptedButtonProps {
  folderId: number;
  /** The folder's whole file list. */
  files: readonly FileRecord[];
  /** The selected files, or the files shown when nothing is selected. */
  chosen: readonly FileRecord[];
  hasSelection: boolean;
  disabled: boolean;
}

export function ExportEncryptedButton({ folderId, files, chosen, hasSelection, disabled }: ExportEncryptedButtonProps) {
  const intl = useIntl();
  const notify = useNotifier();

  function exportFiles() {
    const choice = exportChoice(folderId, files, chosen);
    if (choice.kind === 'too-many') notify.warning(FILES_MESSAGES.exportTooMany(choice.count, MAX_EXPORT_IDS));
    else if (choice.kind === 'export') {
      startBrowserDownload(choice.url);
      notify.info(FILES_MESSAGES.exportStarted(choice.count));
    }
  }

  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<LockIcon />}
      onClick={exportFiles}
      disabled={disabled || chosen.length === 0}
      title={intl.formatMessage(toolbarMessages.exportTitle)}
    >
      {hasSelection ? intl.formatMessage(toolbarMessages.exportSelected, { count: chosen.length }) : intl.formatMessage(toolbarMessages.export)}
    </Button>
  );
}
