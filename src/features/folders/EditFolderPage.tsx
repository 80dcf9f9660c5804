// Edit folder (spec section 2): the form pre-filled from GET /folders/{id}. Before that: 'Folder ID
// is missing.' (no id), 'Invalid Folder ID' (not a number), 'Folder not found or could not be
// loaded.' (404) or the mapped API error (anything else).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useGetFolderQuery, useUpdateFolderMutation } from '../../api/foldersApi.ts';
import { answeredWith, describeApiError } from '../../api/errors.ts';
import type { Folder, FolderPayload } from '../../api/types.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { displayTitle } from '../../lib/folderDisplay.ts';
import { useNotifier } from '../../app/notifier.ts';
import { t } from '../../i18n/language.ts';
import { FOLDER_PAGE_MESSAGES as messages } from '../../lib/userTexts.ts';
import { folderFormFromFolder } from './folderForm.ts';
import { FolderForm } from './FolderForm.tsx';
import { InvalidFolderId } from './InvalidFolderId.tsx';
import { NotificationSettingsSection } from './NotificationSettingsSection.tsx';

function loadErrorMessage(error: unknown): string {
  const described = describeApiError(error);
  return answeredWith(described, 'FOLDER_NOT_FOUND', 404) ? t(messages.loadFailed) : described.message;
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader title={title} back={<BackToDashboardLink />} />
      {children}
    </Box>
  );
}

function EditFolderForm({ folder }: { folder: Folder }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const notify = useNotifier();
  const [updateFolder] = useUpdateFolderMutation();

  async function save(payload: FolderPayload) {
    const updated = await updateFolder({ id: folder.id, payload }).unwrap();
    notify.success(intl.formatMessage(messages.updated, { title: updated.title }));
    await navigate({ to: '/dashboard' });
  }

  return (
    <FolderForm
      mode="update"
      initialValues={folderFormFromFolder(folder)}
      hasExistingPassword={folder.has_password}
      submitLabel={intl.formatMessage(messages.editSubmit)}
      onSubmit={save}
    />
  );
}

function LoadedEditFolder({ folderId }: { folderId: number }) {
  const intl = useIntl();
  // The form starts from the server's current state, not from a copy cached before this screen
  // opened: the data counts only once a fetch started after mounting has answered.
  const [openedAt] = useState(Date.now);
  const { data, error, isFetching, fulfilledTimeStamp } = useGetFolderQuery(folderId, { refetchOnMountOrArgChange: true });
  const fresh = data !== undefined && (fulfilledTimeStamp ?? 0) >= openedAt;
  if (fresh) {
    return (
      <Frame title={intl.formatMessage(messages.editTitleWithName, { title: displayTitle(data.title) })}>
        {/* Keyed by id: another folder's data never lands in this form's state. */}
        <EditFolderForm key={data.id} folder={data} />
        <NotificationSettingsSection folderId={data.id} />
      </Frame>
    );
  }
  if (isFetching || !error) {
    return (
      <Frame title={intl.formatMessage(messages.editTitle)}>
        <LoadingMessage text={intl.formatMessage(messages.loadingFolder)} />
      </Frame>
    );
  }
  return (
    <Frame title={intl.formatMessage(messages.editTitle)}>
      <Alert severity="error">{loadErrorMessage(error)}</Alert>
    </Frame>
  );
}

/** `folderId`: undefined when the route gave none, null when it was not a valid number. */
export function EditFolderPage({ folderId }: { folderId?: number | null }) {
  const intl = useIntl();
  if (folderId === undefined) {
    return (
      <Frame title={intl.formatMessage(messages.editTitle)}>
        <Alert severity="error">{intl.formatMessage(messages.idMissing)}</Alert>
      </Frame>
    );
  }
  if (folderId === null) {
    return (
      <Frame title={intl.formatMessage(messages.editTitle)}>
        <InvalidFolderId />
      </Frame>
    );
  }
  return <LoadedEditFolder folderId={folderId} />;
}
