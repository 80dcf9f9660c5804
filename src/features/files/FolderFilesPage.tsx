// Folder files screen, /folders/view/{folderId} (spec section 2): 'Files in Folder: {title}', the
// files as a tree with selection, downloads and deletes, and the folder's active download links.
// The folder, its files and its links load in parallel (three queries started in the same render).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useListFolderFilesQuery } from '../../api/filesApi.ts';
import { useGetFolderQuery } from '../../api/foldersApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { selectAuthStatus, selectCurrentUser } from '../auth/index.ts';
import { displayTitle } from '../../lib/folderDisplay.ts';
import { InvalidFolderId } from '../folders/index.ts';
import { FolderActivitySection } from '../activity/index.ts';
import { RetentionNote, UnfinishedUploadsSection } from '../storage/index.ts';
import { ActiveDownloadLinksSection, CreateDownloadLinkButton } from '../links/index.ts';
import { MembersSection } from '../team/index.ts';
import { FilesPanel, type LinkActionContext } from './FilesPanel.tsx';
import { formatBytes } from '../../lib/formatBytes.ts';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';
import { pageMessages } from './messages.ts';

function Frame({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} back={<BackToDashboardLink />} />
      {children}
    </>
  );
}

function linkAction({ folderId, selectedFiles, requestKeyOpener, disabled }: LinkActionContext, onCreated: () => void) {
  return <CreateDownloadLinkButton folderId={folderId} files={selectedFiles} requestKeyOpener={requestKeyOpener} onCreated={onCreated} disabled={disabled} />;
}

function FolderFilesScreen({ folderId }: { folderId: number }) {
  const intl = useIntl();
  const folderQuery = useGetFolderQuery(folderId);
  const filesQuery = useListFolderFilesQuery(folderId, { refetchOnMountOrArgChange: true });
  const folder = folderQuery.data;

  if (!folder) {
    if (!folderQuery.error) {
      return (
        <Frame title={intl.formatMessage(pageMessages.title)}>
          <LoadingMessage text={FILES_MESSAGES.loading} />
          <ActiveDownloadLinksSection folderId={folderId} />
        </Frame>
      );
    }
    // Spec section 8: a load failure with no folder shows the mapped error in place of the page.
    return (
      <Frame title={intl.formatMessage(pageMessages.title)}>
        <Alert severity="error" role="alert">
          {describeApiError(folderQuery.error).message}
        </Alert>
      </Frame>
    );
  }

  const files = filesQuery.data;
  const totalBytes = files?.reduce((sum, file) => sum + file.file_size, 0) ?? 0;
  const subtitle = files ? intl.formatMessage(pageMessages.summary, { count: files.length, size: formatBytes(totalBytes, 'oneDecimal') }) : undefined;

  let content: ReactNode;
  if (files) {
    // A team folder's reader lists, downloads and decrypts; links and deletes are for owners and managers.
    const renderLinkAction = folder.my_role === 'reader' ? undefined : (context: LinkActionContext) => linkAction(context, () => void filesQuery.refetch());
    content = <FilesPanel folder={folder} files={files} renderLinkAction={renderLinkAction} />;
  } else if (filesQuery.error) {
    content = (
      <Alert severity="error" role="alert">
        {intl.formatMessage(pageMessages.error, { message: describeApiError(filesQuery.error).message })}
      </Alert>
    );
  } else {
    content = <LoadingMessage text={FILES_MESSAGES.loading} />;
  }

  return (
    <Frame title={intl.formatMessage(pageMessages.titleWithFolder, { title: displayTitle(folder.title) })} subtitle={subtitle}>
      <Stack spacing={4}>
        <Box>
          <RetentionNote retentionDays={folder.retention_days} />
          {content}
        </Box>
        <MembersSection folder={folder} />
        {folder.my_role !== 'reader' && <UnfinishedUploadsSection folderId={folderId} />}
        {folder.my_role !== 'reader' && <ActiveDownloadLinksSection folderId={folderId} />}
        <FolderActivitySection folderId={folderId} />
      </Stack>
    </Frame>
  );
}

export function FolderFilesPage({ folderId }: { folderId: number | null }) {
  const intl = useIntl();
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectCurrentUser);
  if (status === 'checking') return <LoadingMessage text={FILES_MESSAGES.loading} />;
  if (!user) {
    return (
      <Frame title={intl.formatMessage(pageMessages.title)}>
        <Alert severity="error">{FILES_MESSAGES.notAuthenticated}</Alert>
      </Frame>
    );
  }
  if (folderId === null) {
    return (
      <Frame title={intl.formatMessage(pageMessages.title)}>
        <InvalidFolderId />
      </Frame>
    );
  }
  return <FolderFilesScreen folderId={folderId} />;
}
