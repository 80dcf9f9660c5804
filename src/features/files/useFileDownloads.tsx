/**
 * The files screen's downloads: the 'Login Password Required' dialog first when no private key is
 * unlocked (then the pending download runs), then where to save (saveDestination.ts: the browser's
 * save or folder dialog where it has the File System Access API, the service worker's download
 * otherwise), progress while it runs, and the spec's outcome texts. A crypto error clears the
 * cached private key (spec section 8); a finished download reloads the list, whose
 * last_downloaded_admin changed. A cancelled dialog ends the action quietly.
 */
import { useSnackbar } from 'notistack';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { describeApiError } from '../../api/errors.ts';
import { filesDownloaded } from '../../api/filesApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { isCryptoError } from '../../../crypto/index.ts';
import { isDownloadError, type DownloadProgress } from '../downloads/index.ts';
import { keyOperationFailureText, privateKeyCryptoFailed, usePrivateKeyUnlock } from '../keys/index.ts';
import { useFileKeyOpener, type FileKeyOpener } from '../team/index.ts';
import { downloadAdminFiles } from './adminDownload.ts';
import { DOWNLOAD_MESSAGES, downloadErrorText, FILES_MESSAGES } from '../../lib/userTexts.ts';
import { t } from '../../i18n/language.ts';
import { createDownloadProgressStore, type DownloadProgressStore } from './downloadProgressStore.ts';
import { progressMessages } from './messages.ts';
import { useSaveChoice } from './SaveChoiceDialog.tsx';
import { chooseSaveDestination, type DownloadTarget } from './saveDestination.ts';

/** Spec section 9: admin toasts 3-7 s. */
const SUCCESS_TOAST_MS = 3000;
const FAILURE_TOAST_MS = 7000;

export interface ActiveDownload {
  readonly label: string;
  readonly fileCount: number;
  /** null until the service worker started streaming. */
  readonly progress: DownloadProgress | null;
}

/** A download as the files screen holds it: its progress is read from `progress` (downloadProgressStore.ts). */
export interface RunningDownload extends Omit<ActiveDownload, 'progress'> {
  readonly progress: DownloadProgressStore;
}

export interface FileDownloads {
  download(target: DownloadTarget): Promise<void>;
  /**
   * The screen's unlock dialog, then the opener of this folder's file keys (team feature), for other
   * actions that open file keys (create link); null when the dialog was cancelled.
   */
  requestKeyOpener(): Promise<FileKeyOpener | null>;
  cancel(): void;
  active: RunningDownload | null;
  unlockDialog: ReactNode;
  /** 'Save to Folder...' or 'Download as ZIP' (only where the browser can write to a folder). */
  choiceDialog: ReactNode;
}

/** The text of a failed download (spec section 8: 'Download failed: {message}'). */
export function downloadFailureText(error: unknown): string {
  if (isDownloadError(error)) {
    // These already read as a full sentence about the download.
    if (['HTTP', 'NO_STREAMING_SUPPORT', 'NOTHING_DECRYPTED', 'WRITE_FAILED', 'PICKER_FAILED'].includes(error.code)) return downloadErrorText(error);
    return FILES_MESSAGES.downloadFailed(downloadErrorText(error));
  }
  if (isCryptoError(error)) return FILES_MESSAGES.downloadFailed(keyOperationFailureText(error, (e) => describeApiError(e).message));
  return FILES_MESSAGES.downloadFailed(describeApiError(error).message);
}

/** Failures that make the cached private key suspect (a crypto error also clears it, spec section 8). */
function isCryptoFailure(error: unknown): boolean {
  return isCryptoError(error) || isDownloadError(error, 'INTEGRITY') || isDownloadError(error, 'NOTHING_DECRYPTED');
}

/** `viewerIsOwner`: the signed-in account owns the folder (its files with no key epoch are sealed to this account's key). */
export function useFileDownloads(folderId: number, viewerIsOwner: boolean): FileDownloads {
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const { enqueueSnackbar } = useSnackbar();
  const { requestPrivateKey, unlockDialog } = usePrivateKeyUnlock();
  const { askSaveChoice, choiceDialog } = useSaveChoice();
  const openerFor = useFileKeyOpener(folderId, viewerIsOwner);
  const [active, setActive] = useState<RunningDownload | null>(null);
  const running = useRef<AbortController | null>(null);

  const download = useCallback(
    async (target: DownloadTarget) => {
      if (running.current || target.files.length === 0) return;
      const privateKey = await requestPrivateKey();
      if (!privateKey) return; // the unlock dialog was cancelled
      let destination;
      try {
        destination = await chooseSaveDestination(target, askSaveChoice);
      } catch (error) {
        enqueueSnackbar(downloadFailureText(error), { variant: 'error', autoHideDuration: FAILURE_TOAST_MS });
        return;
      }
      if (!destination || running.current) return; // a dialog was cancelled
      const controller = new AbortController();
      running.current = controller;
      const label = destination.kind === 'disk-folder' ? t(progressMessages.toFolder, { folder: destination.directory.name }) : target.label;
      const progress = createDownloadProgressStore();
      setActive({ label, fileCount: target.files.length, progress });
      try {
        const outcome = await downloadAdminFiles({
          files: target.files,
          destination,
          openKey: openerFor(privateKey),
          pool: cryptoPool(),
          signal: controller.signal,
          onProgress: (report) => progress.set(report),
        });
        if (outcome.notDecrypted.length > 0) {
          enqueueSnackbar(DOWNLOAD_MESSAGES.notDecrypted(outcome.notDecrypted), { variant: 'warning', autoHideDuration: FAILURE_TOAST_MS });
        } else {
          const done = destination.kind === 'disk-folder' ? FILES_MESSAGES.savedToFolder(target.files.length, destination.directory.name) : FILES_MESSAGES.downloadDone(target.label);
          enqueueSnackbar(done, { variant: 'success', autoHideDuration: SUCCESS_TOAST_MS });
        }
        dispatch(filesDownloaded(folderId));
      } catch (error) {
        if (isDownloadError(error, 'ABORTED')) {
          enqueueSnackbar(FILES_MESSAGES.downloadCancelled, { variant: 'info', autoHideDuration: SUCCESS_TOAST_MS });
        } else {
          if (isCryptoFailure(error)) dispatch(privateKeyCryptoFailed());
          enqueueSnackbar(downloadFailureText(error), { variant: 'error', autoHideDuration: FAILURE_TOAST_MS });
          console.warn('Download failed', error instanceof Error ? `${error.name}: ${error.message}` : error);
        }
      } finally {
        running.current = null;
        setActive(null);
      }
    },
    [askSaveChoice, cryptoPool, dispatch, enqueueSnackbar, folderId, openerFor, requestPrivateKey],
  );

  const cancel = useCallback(() => running.current?.abort(), []);
  const requestKeyOpener = useCallback(async () => {
    const privateKey = await requestPrivateKey();
    return privateKey ? openerFor(privateKey) : null;
  }, [openerFor, requestPrivateKey]);

  return { download, requestKeyOpener, cancel, active, unlockDialog, choiceDialog };
}
