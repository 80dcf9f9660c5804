/**
 * Delete Selected (spec sections 5 and 8): confirmation 'Are you sure you want to delete {n}
 * files?', then POST /folders/files/delete. The response's errors list says which ids failed:
 * some -> 'Failed to delete N file(s). See console for details.', all -> 'Failed to delete any
 * of the selected files.'
 */
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useDeleteFilesMutation } from '../../api/filesApi.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FILES_MESSAGES } from '../../lib/userTexts.ts';

export interface DeleteFiles {
  /** The ids waiting for confirmation; null while no dialog is open. */
  pending: number[] | null;
  deleting: boolean;
  request(fileIds: number[]): void;
  cancel(): void;
  confirm(): Promise<void>;
}

export function useDeleteFiles(folderId: number, onDeleted: (fileIds: number[]) => void): DeleteFiles {
  const notify = useNotifier();
  const { enqueueSnackbar } = useSnackbar();
  const [deleteFiles, { isLoading: deleting }] = useDeleteFilesMutation();
  const [pending, setPending] = useState<number[] | null>(null);

  async function confirm() {
    if (!pending) return;
    const fileIds = pending;
    try {
      const result = await deleteFiles({ folderId, fileIds }).unwrap();
      const failed = new Set(result.errors.map((error) => error.file_id));
      if (failed.size === 0) {
        notify.success(FILES_MESSAGES.deleted(result.deleted));
      } else {
        // The details (which id, why) are for the console only, as the spec's message says.
        console.warn('Some files could not be deleted', result.errors);
        if (failed.size >= fileIds.length) enqueueSnackbar(FILES_MESSAGES.deleteNone, { variant: 'error' });
        else enqueueSnackbar(FILES_MESSAGES.deletePartial(failed.size), { variant: 'warning' });
      }
      onDeleted(fileIds.filter((id) => !failed.has(id)));
    } catch (error) {
      notify.error(error);
    } finally {
      setPending(null);
    }
  }

  return {
    pending,
    deleting,
    request: (fileIds) => setPending(fileIds),
    cancel: () => setPending(null),
    confirm,
  };
}
