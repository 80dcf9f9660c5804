import { ConfirmDeleteDialog } from '../../app/layout/ConfirmDeleteDialog.tsx';

interface DeleteFolderDialogProps {
  /** The folder's display title; the dialog is open while this is set. */
  title: string | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function deleteConfirmationText(title: string): string {
  return `Are you sure you want to delete the folder "${title}"? This action cannot be undone.`;
}

export function DeleteFolderDialog({ title, ...actions }: DeleteFolderDialogProps) {
  return (
    <ConfirmDeleteDialog
      open={title !== null}
      title="Delete folder"
      message={title === null ? '' : deleteConfirmationText(title)}
      {...actions}
    />
  );
}
