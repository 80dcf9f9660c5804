import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DownloadLink } from '../../api/linksApi.ts';
import { LockIcon } from '../../app/icons.tsx';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { describeLink, downloadLinkAddress, LINK_LABELS } from './linkDisplay.ts';

interface DownloadLinkItemProps {
  link: DownloadLink;
  onDelete(link: DownloadLink): void;
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:
      </Box>{' '}
      {value}
    </Typography>
  );
}

/** One active link: its dates, password state, files, and Copy Link / Delete. */
export function DownloadLinkItem({ link, onDelete }: DownloadLinkItemProps) {
  const shown = describeLink(link);
  const address = downloadLinkAddress(window.location.origin, link.link_token);
  return (
    <Box component="li" aria-label={`Download link created ${shown.created}`} sx={{ listStyle: 'none', py: 2, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}>
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
            {shown.downloadLimit !== null && <Field label="Download limit" value={shown.downloadLimit} />}
            {shown.limitReached && <Chip size="small" color="warning" variant="outlined" label={LINK_LABELS.limitReached} />}
          </Stack>
          <Box component="ul" aria-label="Shared files" sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {shown.files.map((file, index) => (
              <Typography key={`${index}-${file.name}`} component="li" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {file.name}{' '}
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  ({file.downloads})
                </Box>
              </Typography>
            ))}
          </Box>
          {!link.has_password && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              Copy Link gives the address without the decryption keys; share the full link from 'Download Link Ready'.
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          <CopyTextButton text={address} label="Copy Link" failureMessage="Failed to copy link to clipboard." />
          <Button size="small" variant="outlined" color="error" onClick={() => onDelete(link)}>
            Delete
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
