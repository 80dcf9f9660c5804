import { ConfirmDeleteDialog } from '../../app/layout/ConfirmDeleteDialog.tsx';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';

interface DeleteDownloadLinkDialogProps {
  open: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function DeleteDownloadLinkDialog(props: DeleteDownloadLinkDialogProps) {
  return <ConfirmDeleteDialog title="Delete download link" message={CREATE_LINK_MESSAGES.deleteConfirmation} {...props} />;
}
