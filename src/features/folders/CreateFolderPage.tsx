import Box from '@mui/material/Box';
import { useNavigate } from '@tanstack/react-router';
import { useCreateFolderMutation } from '../../api/foldersApi.ts';
import { useGetStorageOverviewQuery } from '../../api/storageApi.ts';
import { LoadingMessage } from '../../app/layout/CenteredMessage.tsx';
import { limitsFormFrom } from '../storage/index.ts';
import type { FolderPayload } from '../../api/types.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { emptyFolderForm } from './folderForm.ts';
import { FolderForm } from './FolderForm.tsx';

export function CreateFolderPage() {
  const navigate = useNavigate();
  const notify = useNotifier();
  const [createFolder] = useCreateFolderMutation();
  // The limits start from the server's defaults; if they cannot be read, the form sends none and the server's apply.
  const defaults = useGetStorageOverviewQuery(undefined, { refetchOnMountOrArgChange: true });

  async function save(payload: FolderPayload) {
    const folder = await createFolder(payload).unwrap();
    notify.success(`Folder "${folder.title}" created successfully!`);
    await navigate({ to: '/dashboard' });
  }

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader
        title="Create New Upload Folder"
        subtitle="Uploaders get a link to this folder; their files are encrypted in their browser before they are sent."
        back={<BackToDashboardLink />}
      />
      {defaults.isLoading ? (
        <LoadingMessage text="Loading..." />
      ) : (
        <FolderForm
          mode="create"
          initialValues={{ ...emptyFolderForm(), limits: defaults.data ? limitsFormFrom(defaults.data.folder_defaults) : null }}
          submitLabel="Create Folder"
          onSubmit={save}
        />
      )}
    </Box>
  );
}
