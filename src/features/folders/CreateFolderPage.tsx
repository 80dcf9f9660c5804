import Box from '@mui/material/Box';
import { useNavigate } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import { useCreateFolderMutation } from '../../api/foldersApi.ts';
import { useGetStorageOverviewQuery } from '../../api/storageApi.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { limitsFormFrom } from '../storage/index.ts';
import type { FolderPayload } from '../../api/types.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { FOLDER_PAGE_MESSAGES as messages } from '../../lib/userTexts.ts';
import { emptyFolderForm } from './folderForm.ts';
import { FolderForm } from './FolderForm.tsx';

export function CreateFolderPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const notify = useNotifier();
  const [createFolder] = useCreateFolderMutation();
  // The limits start from the server's defaults; if they cannot be read, the form sends none and the server's apply.
  const defaults = useGetStorageOverviewQuery(undefined, { refetchOnMountOrArgChange: true });

  async function save(payload: FolderPayload) {
    const folder = await createFolder(payload).unwrap();
    notify.success(intl.formatMessage(messages.created, { title: folder.title }));
    await navigate({ to: '/dashboard' });
  }

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader
        title={intl.formatMessage(messages.createTitle)}
        subtitle={intl.formatMessage(messages.createSubtitle)}
        back={<BackToDashboardLink />}
      />
      {defaults.isLoading ? (
        <LoadingMessage text={intl.formatMessage(messages.loading)} />
      ) : (
        <FolderForm
          mode="create"
          initialValues={{ ...emptyFolderForm(), limits: defaults.data ? limitsFormFrom(defaults.data.folder_defaults) : null }}
          submitLabel={intl.formatMessage(messages.createSubmit)}
          onSubmit={save}
        />
      )}
    </Box>
  );
}
