import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { KeyIcon } from '../../app/icons.tsx';
import type { KeyStorageStatus } from './keyStatus.ts';

const TEXT: Record<KeyStorageStatus, { headline: string; detail: string }> = {
  checking: { headline: 'Checking key storage status...', detail: 'Asking the server whether your encrypted private key is stored.' },
  stored: {
    headline: 'Your encrypted private key is stored on the server.',
    detail: 'It is unlocked with your login password, in this browser only, when you download files.',
  },
  'not-stored': {
    headline: 'No encrypted private key is stored on the server.',
    detail: 'Generate a new key pair, or restore your key from a backup file below.',
  },
  unknown: { headline: 'Key storage status unknown.', detail: 'The status could not be checked. Reload the page to try again.' },
};

const CHIP: Record<KeyStorageStatus, { label: string; color: 'default' | 'success' | 'warning' }> = {
  checking: { label: 'Checking...', color: 'default' },
  stored: { label: 'Stored', color: 'success' },
  'not-stored': { label: 'Not stored', color: 'warning' },
  unknown: { label: 'Unknown', color: 'default' },
};

/** The status chip shown next to the section title. */
export function KeyStatusChip({ status }: { status: KeyStorageStatus }) {
  const chip = CHIP[status];
  return <Chip label={chip.label} color={chip.color} size="small" variant={status === 'stored' ? 'filled' : 'outlined'} />;
}

interface KeyStatusBoxProps {
  status: KeyStorageStatus;
  unlocked: boolean;
  onUnlock(): void;
  onLock(): void;
}

/** Key storage status (spec section 4): checking, stored, not stored, unknown; plus the session's lock state. */
export function KeyStatusBox({ status, unlocked, onUnlock, onLock }: KeyStatusBoxProps) {
  const text = TEXT[status];
  return (
    <Box
      role="status"
      aria-label="Key storage status"
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
        {status === 'checking' ? <CircularProgress size={24} /> : <KeyIcon />}
      </Box>
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {text.headline}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {status === 'stored' && unlocked ? 'Unlocked for this session: downloads will not ask for your password.' : text.detail}
        </Typography>
      </Box>
      {status === 'stored' && (
        <Stack direction="row" spacing={1}>
          {unlocked ? (
            <Button variant="outlined" size="small" onClick={onLock}>
              Lock Private Key
            </Button>
          ) : (
            <Button variant="outlined" size="small" onClick={onUnlock}>
              Unlock Private Key
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}
