import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useDeleteDownloadLinkMutation, useListFolderLinksQuery, type DownloadLink } from '../../api/linksApi.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { useNotifier } from '../../app/notifier.ts';

import { DeleteDownloadLinkDialog } from './DeleteDownloadLinkDialog.tsx';
import { DownloadLinkItem } from './DownloadLinkItem.tsx';
import { LINK_LABELS } from './linkDisplay.ts';
import { LINK_MESSAGES as messages } from './messages.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';

/** 'Active Download Links' of the folder files screen (spec section 2). */
export function ActiveDownloadLinksSection({ folderId }: { folderId: number }) {
  const intl = useIntl();
  const notify = useNotifier();
  const { data: links, error, isLoading } = useListFolderLinksQuery(folderId);
  const [deleteLink, { isLoading: deleting }] = useDeleteDownloadLinkMutation();
  const [pending, setPending] = useState<DownloadLink | null>(null);

  async function confirmDelete() {
    if (!pending) return;
    try {
      await deleteLink({ folderId, linkToken: pending.link_token }).unwrap();
      notify.success(intl.formatMessage(messages.deleted));
    } catch {
      notify.error(new UserFacingError('delete-link-failed', CREATE_LINK_MESSAGES.deleteFailed));
    } finally {
      setPending(null);
    }
  }

  let body;
  if (isLoading) {
    body = <Typography color="text.secondary">{LINK_LABELS.loading}</Typography>;
  } else if (error) {
    body = <Alert severity="error">{intl.formatMessage(messages.listError, { message: describeApiError(error).message })}</Alert>;
  } else if (!links || links.length === 0) {
    body = <Typography color="text.secondary">{LINK_LABELS.empty}</Typography>;
  } else {
    body = (
      <Box component="ul" sx={{ m: 0, p: 0, mt: -2 }} aria-label={intl.formatMessage(messages.listLabel)}>
        {links.map((link) => (
          <DownloadLinkItem key={link.link_token} link={link} onDelete={setPending} />
        ))}
      </Box>
    );
  }

  return (
    <SettingsSection title={intl.formatMessage(messages.listTitle)}>
      {body}
      <DeleteDownloadLinkDialog open={pending !== null} busy={deleting} onCancel={() => setPending(null)} onConfirm={confirmDelete} />
    </SettingsSection>
  );
}
