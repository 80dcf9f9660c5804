import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import type { DownloadLink } from '../../api/linksApi.ts';
import { LockIcon } from '../../app/icons.tsx';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { describeLink, downloadLinkAddress, LINK_LABELS } from './linkDisplay.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

interface DownloadLinkItemProps {
  link: DownloadLink;
  onDelete(link: DownloadLink): void;
}

function Field({ label, value }: { label: string; value: string }) {
  const intl = useIntl();
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {intl.formatMessage(messages.field, { label })}
      </Box>
      {/* eslint-disable-next-line formatjs/no-literal-string-in-jsx -- the space between a label and its value, no text */}
      {' '}
      {value}
    </Typography>
  );
}

/** One active link: its dates, password state, files, and Copy Link / Delete. */
export function DownloadLinkItem({ link, onDelete }: DownloadLinkItemProps) {
  const intl = useIntl();
  const shown = describeLink(link);
  const address = downloadLinkAddress(window.location.origin, link.link_token);
  return (
    <Box component="li" aria-label={intl.formatMessage(messages.itemLabel, { created: shown.created })} sx={{ listStyle: 'none', py: 2, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}>
        <Box sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1.25} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.75, mb: 0.75 }}>
            <Chip
              size="small"
              icon={link.has_password ? <LockIcon /> : undefined}
              label={shown.access}
              color={link.has_password ? 'primary' : 'default'}
              variant={link.has_password ? 'filled' : 'outlined'}
            />
            <Field label={LINK_LABELS.created} value={shown.created} />
            <Field label={LINK_LABELS.validUntil} value={shown.validUntil} />
            <Typography variant="body2" color="text.secondary">
              {shown.fileCount}
            </Typography>
            {shown.downloadLimit !== null && <Field label={intl.formatMessage(messages.downloadLimit)} value={shown.downloadLimit} />}
            {shown.limitReached && <Chip size="small" color="warning" variant="outlined" label={LINK_LABELS.limitReached} />}
          </Stack>
          <Box component="ul" aria-label={intl.formatMessage(messages.sharedFiles)} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {shown.files.map((file, index) => (
              <Typography key={`${index}-${file.name}`} component="li" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {file.name}
                {/* eslint-disable-next-line formatjs/no-literal-string-in-jsx -- the space between a file name and its count, no text */}
                {' '}
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {intl.formatMessage(messages.fileDownloads, { downloads: file.downloads })}
                </Box>
              </Typography>
            ))}
          </Box>
          {!link.has_password && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              {intl.formatMessage(messages.keysHint)}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          <CopyTextButton text={address} label={intl.formatMessage(messages.copyLink)} failureMessage={intl.formatMessage(messages.copyLinkFailed)} />
          <Button size="small" variant="outlined" color="error" onClick={() => onDelete(link)}>
            {intl.formatMessage(messages.delete)}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
