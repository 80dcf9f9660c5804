import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useIntl } from 'react-intl';
import type { Folder } from '../../api/types.ts';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { ButtonLink } from '../../app/layout/links.tsx';
import { uploadLink } from '../../lib/folderDisplay.ts';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

interface FolderActionsProps {
  folder: Folder;
  origin: string;
  onDelete(folder: Folder): void;
  /**
   * On a card the buttons start at the left, in a table row at the right; both wrap when their words
   * are long (German), so the row never pushes the table wider than the page.
   */
  placement?: 'row' | 'card';
}

/**
 * A folder's Copy Link, Edit and Delete (spec section 2), in a table row or on a card. A team
 * folder's reader gets only Copy Link; a manager edits but only the owner deletes.
 */
export function FolderActions({ folder, origin, onDelete, placement = 'row' }: FolderActionsProps) {
  const intl = useIntl();
  return (
    <Stack
      direction="row"
      spacing={placement === 'card' ? 1 : 0.5}
      useFlexGap
      sx={{ justifyContent: placement === 'card' ? 'flex-start' : 'flex-end', alignItems: 'center', flexWrap: 'wrap' }}
    >
      <CopyTextButton text={uploadLink(origin, folder.link_token)} label={intl.formatMessage(messages.copyLink)} failureMessage={intl.formatMessage(messages.copyFailed)} />
      {folder.my_role !== 'reader' && (
        <ButtonLink to="/folders/edit/$folderId" params={{ folderId: folder.id }} size="small" sx={{ px: 1.25, minWidth: 0 }}>
          {intl.formatMessage(messages.edit)}
        </ButtonLink>
      )}
      {folder.my_role === 'owner' && (
        <Button size="small" color="error" onClick={() => onDelete(folder)} sx={{ px: 1.25, minWidth: 0 }}>
          {intl.formatMessage(messages.delete)}
        </Button>
      )}
    </Stack>
  );
}
