// Per-file downloads and the ZIP of the public page. Each file's button runs its own state
// machine (fileButtonState.ts); the ZIP follows the partial-failure rules of spec section 4.
// Where the browser has the File System Access API, a file goes through its save dialog, and
// 'Save All to Folder...' saves every file into a picked folder under the same rules as the ZIP
// (linkSaving.ts). A cancelled dialog does nothing.

import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeApiError } from '../../api/errors.ts';
import type { SharedFile } from '../../api/linksApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import type { DownloadDestination } from '../downloads/index.ts';
import { DOWNLOAD_PAGE_MESSAGES, PUBLIC_ZIP_NAME } from '../../lib/userTexts.ts';
import { FILE_STATUS_RESET_MS, ZIP_PROBLEM_TOAST_MS } from './timings.ts';
import { isBusy, progressPercent, statusForProgress, type FileButtonStatus } from './fileButtonState.ts';
import { linkFileSource, linkZipSources } from './linkDownloadSources.ts';
import type { LinkKeys } from './linkKeyImport.ts';
import { chooseFileDestination, chooseFolderDestination, saveLinkFiles } from './linkSaving.ts';
import { zipOutcomeNotice } from './zipOutcome.ts';

export interface FileDownloadState {
  status: FileButtonStatus;
  percent: number | null;
}

export interface ZipDownloadState {
  running: boolean;
  /** What runs: the ZIP, or the save into a folder. */
  mode: BatchMode;
  percent: number | null;
}

export type BatchMode = 'zip' | 'folder';

const IDLE: FileDownloadState = { status: 'idle', percent: null };

export function useLinkDownloads(linkToken: string, files: readonly SharedFile[], keys: LinkKeys) {
  const { enqueueSnackbar } = useSnackbar();
  const cryptoPool = useCryptoPool();
  const [fileStates, setFileStates] = useState<Record<number, FileDownloadState>>({});
  const [zip, setZip] = useState<ZipDownloadState>({ running: false, mode: 'zip', percent: null });
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const aborts = useRef(new Set<AbortController>());

  useEffect(() => {
    const pending = timers.current;
    const running = aborts.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      for (const controller of running) controller.abort();
    };
  }, []);

  const setFile = useCallback((id: number, state: FileDownloadState) => {
    setFileStates((current) => ({ ...current, [id]: state }));
  }, []);

  const finishFile = useCallback(
    (id: number, status: 'done' | 'failed') => {
      setFile(id, { status, percent: null });
      clearTimeout(timers.current.get(id));
      timers.current.set(
        id,
        setTimeout(() => setFile(id, IDLE), FILE_STATUS_RESET_MS),
      );
    },
    [setFile],
  );

  const showError = useCallback(
    (error: unknown) => {
      const described = describeApiError(error);
      if (described.toast) enqueueSnackbar(described.message, { variant: 'error' });
    },
    [enqueueSnackbar],
  );

  const downloadFile = useCallback(
    async (file: SharedFile) => {
      if (isBusy(fileStates[file.id]?.status ?? 'idle')) return;
      clearTimeout(timers.current.get(file.id));
      const source = linkFileSource(linkToken, file, keys);
      if (!source) {
        showError(new UserFacingError('key-not-found', DOWNLOAD_PAGE_MESSAGES.keyNotFound(file.original_filename)));
        finishFile(file.id, 'failed');
        return;
      }
      let destination;
      try {
        destination = await chooseFileDestination(source.name);
      } catch (error) {
        showError(error);
        return;
      }
      if (!destination) return; // the save dialog was cancelled
      setFile(file.id, { status: 'starting', percent: null });
      const controller = new AbortController();
      aborts.current.add(controller);
      try {
        await saveLinkFiles(cryptoPool(), destination, [source], {
          signal: controller.signal,
          onProgress: ({ bytes, totalBytes }) => setFile(file.id, { status: statusForProgress(bytes, totalBytes), percent: progressPercent(bytes, totalBytes) }),
          skipFailedFiles: false,
        });
        finishFile(file.id, 'done');
      } catch (error) {
        showError(error);
        finishFile(file.id, 'failed');
      } finally {
        aborts.current.delete(controller);
      }
    },
    [cryptoPool, fileStates, finishFile, keys, linkToken, setFile, showError],
  );

  const runBatch = useCallback(
    async (mode: BatchMode) => {
      if (zip.running) return;
      const { sources, missingKeys } = linkZipSources(linkToken, files, keys);
      if (files.length === 0) {
        enqueueSnackbar(DOWNLOAD_PAGE_MESSAGES.noFiles, { variant: 'warning' });
        return;
      }
      let failed = missingKeys.length;
      if (sources.length > 0) {
        let destination: DownloadDestination | null = { kind: 'browser-zip', zipName: PUBLIC_ZIP_NAME };
        if (mode === 'folder') {
          try {
            destination = await chooseFolderDestination();
          } catch (error) {
            enqueueSnackbar(describeApiError(error).message, { variant: 'error', autoHideDuration: ZIP_PROBLEM_TOAST_MS });
            return;
          }
          if (!destination) return; // the folder dialog was cancelled
        }
        setZip({ running: true, mode, percent: null });
        const controller = new AbortController();
        aborts.current.add(controller);
        try {
          const outcome = await saveLinkFiles(cryptoPool(), destination, sources, {
            signal: controller.signal,
            onProgress: ({ bytes, totalBytes }) => setZip({ running: true, mode, percent: progressPercent(bytes, totalBytes) }),
            skipFailedFiles: true,
          });
          failed += outcome.failedFiles;
        } catch (error) {
          // The batch itself failed (no streaming support, cancelled, broken mid-file, disk full).
          const described = describeApiError(error);
          enqueueSnackbar(described.message, { variant: 'error', autoHideDuration: ZIP_PROBLEM_TOAST_MS });
          return;
        } finally {
          aborts.current.delete(controller);
          setZip({ running: false, mode, percent: null });
        }
      }
      const notice = zipOutcomeNotice(files.length, failed);
      enqueueSnackbar(notice.message, { variant: notice.severity, autoHideDuration: notice.autoHideMs });
    },
    [cryptoPool, enqueueSnackbar, files, keys, linkToken, zip.running],
  );

  const downloadAll = useCallback(() => runBatch('zip'), [runBatch]);
  const saveAllToFolder = useCallback(() => runBatch('folder'), [runBatch]);

  const stateOf = useCallback((file: SharedFile): FileDownloadState => fileStates[file.id] ?? IDLE, [fileStates]);

  return { stateOf, downloadFile, zip, downloadAll, saveAllToFolder };
}
