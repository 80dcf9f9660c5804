import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MessageDescriptor } from 'react-intl';
import { useIntl } from 'react-intl';
import { KeyIcon } from '../../app/icons.tsx';
import type { KeyStorageStatus } from './keyStatus.ts';
import { KEYS_UI } from './messages.ts';

const TEXT: Record<KeyStorageStatus, { headline: MessageDescriptor; detail: MessageDescriptor }> = {
  checking: { headline: KEYS_UI.checkingHeadline, detail: KEYS_UI.checkingDetail },
  stored: { headline: KEYS_UI.storedHeadline, detail: KEYS_UI.storedDetail },
  'not-stored': { headline: KEYS_UI.notStoredHeadline, detail: KEYS_UI.notStoredDetail },
  unknown: { headline: KEYS_UI.unknownHeadline, detail: KEYS_UI.unknownDetail },
};

const CHIP: Record<KeyStorageStatus, { label: MessageDescriptor; color: 'default' | 'success' | 'warning' }> = {
  checking: { label: KEYS_UI.chipChecking, color: 'default' },
  stored: { label: KEYS_UI.chipStored, color: 'success' },
  'not-stored': { label: KEYS_UI.chipNotStored, color: 'warning' },
  unknown: { label: KEYS_UI.chipUnknown, color: 'default' },
};

/** The status chip shown next to the section title. */
export function KeyStatusChip({ status }: { status: KeyStorageStatus }) {
  const intl = useIntl();
  const chip = CHIP[status];
  return <Chip label={intl.formatMessage(chip.label)} color={chip.color} size="small" variant={status === 'stored' ? 'filled' : 'outlined'} />;
}

interface KeyStatusBoxProps {
  status: KeyStorageStatus;
  unlocked: boolean;
  onUnlock(): void;
  onLock(): void;
}

/** Key storage status (spec section 4): checking, stored, not stored, unknown; plus the session's lock state. */
export function KeyStatusBox({ status, unlocked, onUnlock, onLock }: KeyStatusBoxProps) {
  const intl = useIntl();
  const text = TEXT[status];
  return (
    <Box
      role="status"
      aria-label={intl.formatMessage(KEYS_UI.statusLabel)}
      data-status={status}
      sx={{
        display: 'flex',
        gap: 2,
        alignItems: 'center',
        flexWrap: 'wrap',
        p: 2,
        borderRadius: 2,
        border: 1,
        borderColor: status === 'stored' ? 'success.light' : status === 'not-stored' ? 'warning.light' : 'divider',
        bgcolor: status === 'stored' ? 'rgba(46, 125, 50, 0.04)' : status === 'not-stored' ? 'rgba(237, 108, 2, 0.04)' : 'background.default',
      }}
    >
      <Box sx={{ color: status === 'stored' ? 'success.main' : 'text.secondary', display: 'flex' }}>
        {status === 'checking' ? <CircularProgress size={24} aria-hidden /> : <KeyIcon />}
      </Box>
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {intl.formatMessage(text.headline)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {intl.formatMessage(status === 'stored' && unlocked ? KEYS_UI.unlockedDetail : text.detail)}
        </Typography>
      </Box>
      {status === 'stored' && (
        <Stack direction="row" spacing={1}>
          {unlocked ? (
            <Button variant="outlined" size="small" onClick={onLock}>
              {intl.formatMessage(KEYS_UI.lock)}
            </Button>
          ) : (
            <Button variant="outlined" size="small" onClick={onUnlock}>
              {intl.formatMessage(KEYS_UI.unlock)}
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}
