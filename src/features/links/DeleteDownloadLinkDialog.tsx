import { ConfirmDeleteDialog } from '../../app/layout/ConfirmDeleteDialog.tsx';
import { useIntl } from 'react-intl';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

interface DeleteDownloadLinkDialogProps {
  open: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}

export function DeleteDownloadLinkDialog(props: DeleteDownloadLinkDialogProps) {
  const intl = useIntl();
  return <ConfirmDeleteDialog title={intl.formatMessage(messages.deleteTitle)} message={CREATE_LINK_MESSAGES.deleteConfirmation} {...props} />;
}
