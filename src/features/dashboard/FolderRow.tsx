import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Folder } from '../../api/types.ts';
import { ButtonLink, TextLink } from '../../app/layout/links.tsx';
import { LockIcon, MailIcon, PublicIcon } from '../../app/icons.tsx';
import { folderStatus, type FolderStatus } from '../folders/index.ts';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { displayTitle, formatDateTime, formatExpiry, uploadLink } from '../../lib/folderDisplay.ts';

const STATUS_COLOR: Record<FolderStatus, 'success' | 'default' | 'warning'> = {
  Active: 'success',
  Inactive: 'default',
  Expired: 'warning',
};

function SecurityHints({ folder }: { folder: Folder }) {
  const emails = folder.allowed_emails ?? [];
  if (!folder.has_password && !folder.require_email_verification) {
    return (
      <Tooltip title="Anyone with the link can upload">
        <Chip size="small" variant="outlined" icon={<PublicIcon />} label="Open link" sx={{ color: 'text.secondary' }} />
      </Tooltip>
    );
  }
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      {folder.has_password && (
        <Tooltip title="The upload link asks for a password">
          <Chip size="small" variant="outlined" color="primary" icon={<LockIcon />} label="Password" />
        </Tooltip>
      )}
      {folder.require_email_verification && (
        <Tooltip title={emails.length > 0 ? `Only: ${emails.join(', ')}` : 'Any verified e-mail address'}>
          <Chip size="small" variant="outlined" color="primary" icon={<MailIcon />} label="E-mail verification" />
        </Tooltip>
      )}
      {folder.require_email_verification && emails.length > 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ pl: 0.5 }}>
          {emails.length === 1 ? '1 allowed address' : `${emails.length} allowed addresses`}
        </Typography>
      )}
    </Stack>
  );
}

// Wide enough for the time ("12:41:41 PM"), too narrow for date and time together, so the
// locale's own separator (", ") is where the line breaks.
function DateCell({ text }: { text: string }) {
  return (
    <TableCell>
      <Typography variant="body2" sx={{ width: 96 }}>
        {text}
      </Typography>
    </TableCell>
  );
}

interface FolderRowProps {
  folder: Folder;
  now: number;
  origin: string;
  onDelete(folder: Folder): void;
}

export function FolderRow({ folder, now, origin, onDelete }: FolderRowProps) {
  const title = displayTitle(folder.title);
  const status = folderStatus(folder, now);
  return (
    <TableRow hover data-folder-id={folder.id}>
      <TableCell sx={{ minWidth: 150, maxWidth: 220 }}>
        <TextLink
          to="/folders/view/$folderId"
          params={{ folderId: folder.id }}
          underline="hover"
          sx={{ fontWeight: 600, fontStyle: title === folder.title ? 'normal' : 'italic', wordBreak: 'break-word' }}
        >
          {title}
        </TextLink>
        {folder.description && (
          <Typography variant="body2" color="text.secondary" noWrap title={folder.description}>
            {folder.description}
          </Typography>
        )}
        {folder.has_undownloaded_files && (
          <Box sx={{ mt: 0.5 }}>
            <Tooltip title="Some files in this folder have never been downloaded">
              <Chip size="small" color="secondary" label="New files" sx={{ height: 20, fontSize: '0.75rem' }} />
            </Tooltip>
          </Box>
        )}
      </TableCell>
      <DateCell text={formatDateTime(folder.creation_date)} />
      <DateCell text={formatExpiry(folder.expiration_date)} />
      <DateCell text={formatDateTime(folder.last_upload_time)} />
      <TableCell>
        <Chip size="small" label={status} color={STATUS_COLOR[status]} variant={status === 'Inactive' ? 'outlined' : 'filled'} />
      </TableCell>
      <TableCell>
        <SecurityHints folder={folder} />
      </TableCell>
      <TableCell align="right">
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <CopyTextButton text={uploadLink(origin, folder.link_token)} label="Copy Link" failureMessage="Failed to copy link to clipboard." />
          <ButtonLink to="/folders/edit/$folderId" params={{ folderId: folder.id }} size="small" sx={{ px: 1.25, minWidth: 0 }}>
            Edit
          </ButtonLink>
          <Button size="small" color="error" onClick={() => onDelete(folder)} sx={{ px: 1.25, minWidth: 0 }}>
            Delete
          </Button>
        </Stack>
      </TableCell>
    </TableRow>
  );
}
