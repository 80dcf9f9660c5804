import { useIntl } from 'react-intl';
import { ConfirmDeleteDialog } from '../../app/layout/ConfirmDeleteDialog.tsx';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';
import { dialogMessages } from './messages.ts';

interface DeleteFilesDialogProps {
  /** Number of files to delete; the dialog is open while this is set. */
  count: number | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function DeleteFilesDialog({ count, ...actions }: DeleteFilesDialogProps) {
  const intl = useIntl();
  return (
    <ConfirmDeleteDialog
      open={count !== null}
      title={intl.formatMessage(dialogMessages.deleteTitle)}
      message={count === null ? '' : FILES_MESSAGES.deleteConfirm(count)}
      {...actions}
    />
  );
}
