// The folder's status chip, its security hints and the 'New files' mark: the same in the table
// (wide screens) and the cards (phones).
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useIntl, type MessageDescriptor } from 'react-intl';
import type { Folder } from '../../api/types.ts';
import { LockIcon, MailIcon, PublicIcon } from '../../app/icons.tsx';
import type { FolderStatus } from '../folders/index.ts';
import { DASHBOARD_TEAM_TEXTS, TEAM_ROLE_TEXTS } from '../../lib/userTexts.ts';
import { DASHBOARD_MESSAGES as messages } from './messages.ts';

const STATUS_COLOR: Record<FolderStatus, 'success' | 'default' | 'warning'> = {
  Active: 'success',
  Inactive: 'default',
  Expired: 'warning',
};

/** The chip's text; the status itself stays the spec's English word (folderStatus). */
const STATUS_LABEL: Record<FolderStatus, MessageDescriptor> = {
  Active: messages.statusActive,
  Inactive: messages.statusInactive,
  Expired: messages.statusExpired,
};

export function FolderStatusChip({ status }: { status: FolderStatus }) {
  const intl = useIntl();
  return <Chip size="small" label={intl.formatMessage(STATUS_LABEL[status])} color={STATUS_COLOR[status]} variant={status === 'Inactive' ? 'outlined' : 'filled'} />;
}

export function NewFilesChip() {
  const intl = useIntl();
  return (
    <Tooltip title={intl.formatMessage(messages.newFilesHint)}>
      <Chip size="small" color="secondary" label={intl.formatMessage(messages.newFiles)} sx={{ height: 20, fontSize: '0.75rem' }} />
    </Tooltip>
  );
}

export function SecurityHints({ folder, direction = 'column' }: { folder: Folder; direction?: 'row' | 'column' }) {
  const intl = useIntl();
  const emails = folder.allowed_emails ?? [];
  if (!folder.has_password && !folder.require_email_verification) {
    return (
      <Tooltip title={intl.formatMessage(messages.openLinkHint)}>
        <Chip size="small" variant="outlined" icon={<PublicIcon />} label={intl.formatMessage(messages.openLink)} sx={{ color: 'text.secondary' }} />
      </Tooltip>
    );
  }
  return (
    <Stack direction={direction} spacing={0.5} useFlexGap sx={{ alignItems: direction === 'row' ? 'center' : 'flex-start', flexWrap: 'wrap' }}>
      {folder.has_password && (
        <Tooltip title={intl.formatMessage(messages.passwordHint)}>
          <Chip size="small" variant="outlined" color="primary" icon={<LockIcon />} label={intl.formatMessage(messages.password)} />
        </Tooltip>
      )}
      {folder.require_email_verification && (
        <Tooltip title={emails.length > 0 ? intl.formatMessage(messages.onlyEmails, { emails: emails.join(', ') }) : intl.formatMessage(messages.anyEmail)}>
          <Chip size="small" variant="outlined" color="primary" icon={<MailIcon />} label={intl.formatMessage(messages.emailVerification)} />
        </Tooltip>
      )}
      {folder.require_email_verification && emails.length > 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ pl: 0.5 }}>
          {intl.formatMessage(messages.allowedAddresses, { count: emails.length })}
        </Typography>
      )}
    </Stack>
  );
}

/** A team folder's mark: "Shared with me · Reader" on a folder another account owns, "Shared" on one's own. */
export function TeamChip({ folder }: { folder: Folder }) {
  if (folder.my_role !== 'owner') {
    return <Chip size="small" color="info" variant="outlined" label={DASHBOARD_TEAM_TEXTS.sharedWithMe(TEAM_ROLE_TEXTS[folder.my_role])} sx={{ height: 22 }} />;
  }
  if (!folder.is_team) return null;
  return <Chip size="small" variant="outlined" label={DASHBOARD_TEAM_TEXTS.sharedByMe} sx={{ height: 22 }} />;
}
