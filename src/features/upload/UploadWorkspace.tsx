import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../app/hooks.ts';
import { DropArea } from './DropArea.tsx';
import { workspaceMessages } from './messages.ts';
import { OverallProgress } from './OverallProgress.tsx';
import { QueueList } from './QueueList.tsx';
import { UnfinishedUploads } from './UnfinishedUploads.tsx';
import { UploadAnnouncer } from './UploadAnnouncer.tsx';
import { selectQueueSummary } from './queueSummary.ts';
import type { UploadController } from './uploadController.ts';
import { DownloadIcon, RetryIcon } from '../../app/icons.tsx';
import { canDropFiles, isUploadRunning, UploadStep } from './uploadSteps.ts';
import { selectUploadStepState } from './uploadStepSlice.ts';

/** Steps 4 to 7 and 9: adding files, the queue, the run's progress and its outcome. */
export function UploadWorkspace({ controller }: { controller: UploadController }) {
  const intl = useIntl();
  const { step, runError, keyError } = useAppSelector(selectUploadStepState);
  const summary = useAppSelector(selectQueueSummary);
  const running = isUploadRunning(step);
  const idle = !running;
  const inProgress = summary.hashing + summary.encrypting + summary.uploading;
  // This component re-renders at every progress flush of a run (its counts change); the drop area
  // and the queue list keep the same props meanwhile, so they are not rendered again with it.
  const removeFile = useCallback((id: string) => controller.removeFile(id), [controller]);
  const retryFile = useCallback((id: string) => controller.retryFailed(id), [controller]);
  const dropDisabled = !canDropFiles(step);
  const dropArea = useMemo(() => <DropArea disabled={dropDisabled} onFiles={(files) => void controller.addFiles(files)} />, [dropDisabled, controller]);

  return (
    <Stack spacing={3}>
      <UnfinishedUploads controller={controller} refreshKey={step} disabled={running} />
      {dropArea}
      {step === UploadStep.keyFailed && keyError && (
        <Alert severity="error" role="alert">
          {keyError}
        </Alert>
      )}
      {step === UploadStep.finishedWithErrors && runError && (
        <Alert severity="warning" role="alert">
          {runError}
        </Alert>
      )}
      {summary.total > 0 && (
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1, gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="h2">{intl.formatMessage(workspaceMessages.filesHeading, { count: summary.total })}</Typography>
            <Typography variant="body2" color="text.secondary" data-testid="queue-summary">
              {[
                summary.pending > 0 && intl.formatMessage(workspaceMessages.pending, { count: summary.pending }),
                inProgress > 0 && intl.formatMessage(workspaceMessages.inProgress, { count: inProgress }),
                summary.success > 0 && intl.formatMessage(workspaceMessages.uploaded, { count: summary.success }),
                summary.error > 0 && intl.formatMessage(workspaceMessages.failed, { count: summary.error }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          </Box>
          <QueueList idle={idle} onRemove={removeFile} onRetry={retryFile} />
        </Box>
      )}
      <OverallProgress running={running} />
      <UploadAnnouncer running={running} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button
          variant="contained"
          size="large"
          disabled={running || summary.pending === 0}
          onClick={() => void controller.startUpload()}
        >
          {step === UploadStep.processing
            ? intl.formatMessage(workspaceMessages.preparing)
            : step === UploadStep.uploading
              ? intl.formatMessage(workspaceMessages.uploading)
              : summary.pending > 0
                ? intl.formatMessage(workspaceMessages.uploadCount, { count: summary.pending })
                : intl.formatMessage(workspaceMessages.uploadFiles)}
        </Button>
        {summary.error > 0 && (
          <Button variant="outlined" size="large" startIcon={<RetryIcon />} disabled={running} onClick={() => controller.retryFailed()}>
            {intl.formatMessage(workspaceMessages.retryFailed, { count: summary.error })}
          </Button>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <Button size="large" startIcon={<DownloadIcon />} onClick={() => controller.downloadReceipt()}>
          {intl.formatMessage(workspaceMessages.downloadReceipt)}
        </Button>
      </Stack>
    </Stack>
  );
}
