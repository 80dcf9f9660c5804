import { ConfirmDeleteDialog } from '../../app/layout/ConfirmDeleteDialog.tsx';
import { t } from '../../i18n/language.ts';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

interface DeleteFolderDialogProps {
  /** The folder's display title; the dialog is open while this is set. */
  title: string | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function deleteConfirmationText(title: string): string {
  return t(messages.deleteConfirmation, { title });
}

export function DeleteFolderDialog({ title, ...actions }: DeleteFolderDialogProps) {
  return (
    <ConfirmDeleteDialog
      open={title !== null}
      title={t(messages.deleteTitle)}
      message={title === null ? '' : deleteConfirmationText(title)}
      {...actions}
    />
  );
}
