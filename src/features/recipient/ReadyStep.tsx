import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useIntl } from 'react-intl';
import type { SharedFile } from '../../api/linksApi.ts';
import { t } from '../../i18n/language.ts';
import { PoliteAnnouncer } from '../../app/layout/PoliteAnnouncer.tsx';
import { DOWNLOAD_PAGE_MESSAGES } from '../../lib/userTexts.ts';
import { FILE_BUTTON_LABELS, isBusy } from './fileButtonState.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import { canSaveToFolder } from '../downloads/index.ts';
import type { LinkKeys } from './linkKeyImport.ts';
import { pageMessages } from './messages.ts';
import { recipientAnnouncement } from './recipientAnnouncement.ts';
import { useLinkDownloads, type FileDownloadState, type ZipDownloadState } from './useLinkDownloads.ts';

interface ReadyStepProps {
  linkToken: string;
  files: SharedFile[];
  keys: LinkKeys;
}

function buttonColor(state: FileDownloadState): 'primary' | 'success' | 'error' {
  if (state.status === 'done') return 'success';
  if (state.status === 'failed') return 'error';
  return 'primary';
}

function batchLabel(zip: ZipDownloadState): string {
  const label = zip.mode === 'folder' ? DOWNLOAD_PAGE_MESSAGES.savingToFolder : t(pageMessages.preparingZip);
  return zip.percent !== null ? t(pageMessages.batchPercent, { label, percent: zip.percent }) : label;
}

/**
 * Step 2: 'Files ready for download:', a button per file and 'Download All as ZIP' for several;
 * beside it 'Save All to Folder...' where the browser can write to a folder.
 */
export function ReadyStep({ linkToken, files, keys }: ReadyStepProps) {
  const intl = useIntl();
  const { stateOf, downloadFile, zip, downloadAll, saveAllToFolder } = useLinkDownloads(linkToken, files, keys);
  const folderOffered = canSaveToFolder();
  if (files.length === 0) return <Alert severity="info">{DOWNLOAD_PAGE_MESSAGES.noFilesLeft}</Alert>;
  return (
    <Stack spacing={2.5}>
      <PoliteAnnouncer message={recipientAnnouncement(files, stateOf, zip)} />
      <Typography variant="h2" component="p">
        {DOWNLOAD_PAGE_MESSAGES.filesReady}
      </Typography>
      <Box component="ul" aria-label={intl.formatMessage(pageMessages.sharedFiles)} sx={{ m: 0, p: 0, border: 1, borderColor: 'divider', borderRadius: 2 }}>
        {files.map((file) => {
          const state = stateOf(file);
          return (
            <Box
              component="li"
              key={file.id}
              aria-label={file.original_filename}
              sx={{ listStyle: 'none', px: 2, py: 1.5, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}
            >
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{file.original_filename}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {state.status === 'downloading' && state.percent !== null
                      ? intl.formatMessage(pageMessages.sizeAndPercent, { size: formatBytes(file.file_size, 'twoBelow10GB'), percent: state.percent })
                      : formatBytes(file.file_size, 'twoBelow10GB')}
                  </Typography>
                </Box>
                <Button
                  variant={state.status === 'idle' ? 'outlined' : 'contained'}
                  color={buttonColor(state)}
                  disabled={isBusy(state.status)}
                  onClick={() => void downloadFile(file)}
                  aria-label={intl.formatMessage(pageMessages.fileButton, { label: FILE_BUTTON_LABELS[state.status], name: file.original_filename })}
                  sx={{ minWidth: 140, flexShrink: 0, '&.Mui-disabled': { color: 'primary.main', borderColor: 'primary.light' } }}
                >
                  {FILE_BUTTON_LABELS[state.status]}
                </Button>
              </Stack>
              {isBusy(state.status) && (
                <LinearProgress
                  variant={state.percent === null ? 'indeterminate' : 'determinate'}
                  value={state.percent ?? 0}
                  sx={{ mt: 1.25, borderRadius: 1 }}
                  aria-label={intl.formatMessage(pageMessages.fileProgress, { name: file.original_filename })}
                />
              )}
            </Box>
          );
        })}
      </Box>
      {files.length > 1 && (
        <Box>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button variant="contained" size="large" disabled={zip.running} onClick={() => void downloadAll()}>
              {zip.running && zip.mode === 'zip' ? batchLabel(zip) : DOWNLOAD_PAGE_MESSAGES.downloadAll}
            </Button>
            {folderOffered && (
              <Button variant="outlined" size="large" disabled={zip.running} onClick={() => void saveAllToFolder()}>
                {zip.running && zip.mode === 'folder' ? batchLabel(zip) : DOWNLOAD_PAGE_MESSAGES.saveAllToFolder}
              </Button>
            )}
          </Stack>
          {folderOffered && !zip.running && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {DOWNLOAD_PAGE_MESSAGES.saveAllToFolderHint}
            </Typography>
          )}
          {zip.running && (
            <LinearProgress
              variant={zip.percent === null ? 'indeterminate' : 'determinate'}
              value={zip.percent ?? 0}
              sx={{ mt: 1.5, borderRadius: 1 }}
              aria-label={intl.formatMessage(zip.mode === 'folder' ? pageMessages.folderProgress : pageMessages.zipProgress)}
            />
          )}
        </Box>
      )}
    </Stack>
  );
}
