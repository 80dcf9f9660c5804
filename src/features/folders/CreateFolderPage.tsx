import Box from '@mui/material/Box';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useCreateFolderMutation } from '../../api/foldersApi.ts';
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
  const [initialValues] = useState(emptyFolderForm);

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
      <FolderForm mode="create" initialValues={initialValues} submitLabel="Create Folder" onSubmit={save} />
    </Box>
  );
}
