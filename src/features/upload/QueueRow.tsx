import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import { FileNameText } from './FileNameText.tsx';
import { transferLine } from './formatTransfer.ts';
import { queueMessages } from './messages.ts';
import { CloseIcon, DoneIcon, ErrorIcon, FileIcon, OfflineIcon, RetryIcon } from '../../app/icons.tsx';
import { selectQueuedFileById, type QueuedFile, type QueuedFileStatus } from './uploadQueueSlice.ts';

export const QUEUE_ROW_HEIGHT = 64;

const STATUS_LABEL: Record<QueuedFileStatus, MessageDescriptor> = {
  pending: queueMessages.pending,
  hashing: queueMessages.hashing,
  encrypting: queueMessages.encrypting,
  uploading: queueMessages.uploading,
  success: queueMessages.success,
  error: queueMessages.error,
};

const STATUS_COLOR: Record<QueuedFileStatus, 'default' | 'info' | 'secondary' | 'primary' | 'success' | 'error'> = {
  pending: 'default',
  hashing: 'info',
  encrypting: 'info',
  uploading: 'primary',
  success: 'success',
  error: 'error',
};

function detail(file: QueuedFile, intl: IntlShape): { text: string; tone: 'secondary' | 'error' | 'warning' } {
  const location = file.relativePath === '.' ? '' : `${file.relativePath} · `;
  if (file.status === 'error') return { text: file.error ?? intl.formatMessage(queueMessages.error), tone: 'error' };
  if (file.waitingForNetwork) return { text: intl.formatMessage(queueMessages.offline), tone: 'warning' };
  if (file.status === 'uploading') return { text: location + transferLine(file.bytesSent, file.size, file.bytesPerSecond, file.secondsLeft), tone: 'secondary' };
  return { text: location + formatBytes(file.size, 'wholeFrom100'), tone: 'secondary' };
}

function StatusIcon({ file }: { file: QueuedFile }) {
  if (file.status === 'success') return <DoneIcon color="success" fontSize="small" />;
  if (file.status === 'error') return <ErrorIcon color="error" fontSize="small" />;
  if (file.waitingForNetwork) return <OfflineIcon color="warning" fontSize="small" />;
  return <FileIcon fontSize="small" sx={{ color: 'text.secondary' }} />;
}

interface QueueRowProps {
  id: string;
  /** Removing and retrying single files is possible only while no upload runs. */
  idle: boolean;
  onRemove(id: string): void;
  onRetry(id: string): void;
}

export const QueueRow = memo(function QueueRow({ id, idle, onRemove, onRetry }: QueueRowProps) {
  const intl = useIntl();
  const file = useAppSelector((state) => selectQueuedFileById(state, id));
  if (!file) return null;
  const { text, tone } = detail(file, intl);
  const active = file.status === 'hashing' || file.status === 'encrypting' || file.status === 'uploading';
  const removable = idle && (file.status === 'pending' || file.status === 'error');
  return (
    <Box
      role="listitem"
      aria-label={file.name}
      data-status={file.status}
      sx={{ height: QUEUE_ROW_HEIGHT, px: { xs: 1, sm: 2 }, display: 'flex', alignItems: 'center', gap: { xs: 1, sm: 1.5 }, position: 'relative', borderBottom: 1, borderColor: 'divider' }}
    >
      <StatusIcon file={file} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <FileNameText name={file.name} />
        <Typography
          variant="caption"
          noWrap
          component="div"
          title={text}
          color={tone === 'secondary' ? 'text.secondary' : `${tone}.main`}
          data-testid="queue-row-detail"
        >
          {text}
        </Typography>
      </Box>
      <Chip
        size="small"
        variant={file.status === 'pending' ? 'outlined' : 'filled'}
        color={STATUS_COLOR[file.status]}
        label={file.status === 'uploading' ? intl.formatMessage(queueMessages.uploadingPercent, { percent: file.progress }) : intl.formatMessage(STATUS_LABEL[file.status])}
        sx={{ minWidth: { xs: 0, sm: 88 }, flexShrink: 0 }}
      />
      <Box sx={{ width: { xs: 'auto', sm: 72 }, display: 'flex', justifyContent: 'flex-end', flexShrink: 0 }}>
        {idle && file.status === 'error' && (
          <Tooltip title={intl.formatMessage(queueMessages.retryTooltip)}>
            <IconButton size="small" aria-label={intl.formatMessage(queueMessages.retryFile, { name: file.name })} onClick={() => onRetry(file.id)}>
              <RetryIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {removable && (
          <Tooltip title={intl.formatMessage(queueMessages.removeTooltip)}>
            <IconButton size="small" aria-label={intl.formatMessage(queueMessages.removeFile, { name: file.name })} onClick={() => onRemove(file.id)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      {(active || file.status === 'success') && (
        <LinearProgress
          variant={file.status === 'uploading' || file.status === 'success' ? 'determinate' : 'indeterminate'}
          value={file.status === 'success' ? 100 : file.progress}
          color={file.status === 'success' ? 'success' : 'secondary'}
          aria-label={intl.formatMessage(queueMessages.fileProgress, { name: file.name })}
          sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }}
        />
      )}
    </Box>
  );
});
