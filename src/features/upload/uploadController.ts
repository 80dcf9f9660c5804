/**
 * The upload page's actions (add, remove, upload, retry, receipt): it dispatches to the store and
 * notifies, and hands a run's files to the engine (engine/uploadScheduler.ts), whose events
 * runTally.ts turns into rows, counts and toasts. Plain TypeScript: the page creates one per mounted
 * page (useUploadController) and calls its methods from buttons and the drop area.
 */
import { answeredWith, describeApiError } from '../../api/errors.ts';
import { uploadApi } from '../../api/uploadApi.ts';
import { transferStarted } from '../../lib/transferActivity.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { fileOf, forgetFile, registerFile } from './fileRegistry.ts';
import { otherRejectedMessage, selectFiles, tooLargeMessage, type CandidateFile } from './fileSelection.ts';
import { ProgressReporter } from './progressReporter.ts';
import { receiptEntriesOf, type StoredFile } from './receiptEntries.ts';
import { downloadReceipt } from './receipt.ts';
import { runOutcome, type RunCounts, type ToastVariant } from './runOutcome.ts';
import { RunTally } from './runTally.ts';
import type { EncryptorPool, ResumePoint, UploadFile, UploadJournal, UploadTransport } from './engine/enginePorts.ts';
import { SMALL_FILE_MAX_BYTES } from './engine/uploadLimits.ts';
import { entryIdOf, type QueueEntry } from './resume/queueEntry.ts';
import type { ResumeCatalogue } from './resume/resumeCatalogue.ts';
export type { ResumeCatalogue } from './resume/resumeCatalogue.ts';
import { describeUploadFailure } from './engine/runContext.ts';
import { UploadScheduler } from './engine/uploadScheduler.ts';
import { FOLDER_KEY_CHANGED, FolderKeyHold } from './engine/folderKeyHold.ts';
import type { EngineEvents } from './engine/runEvents.ts';
import {
  failedFilesReset,
  fileRemoved,
  filesConfirmed,
  filesQueued,
  pendingFilesFailed,
  queueUpdated,
  selectQueuedFiles,
  selectReceipt,
  uploadedFilesCleared,
} from './uploadQueueSlice.ts';
import { canDropFiles, canStartUpload, isUploadRunning } from './uploadSteps.ts';
import { keyFailed, keyLoaded, runFinished, selectUploadStepState, sendingStarted } from './uploadStepSlice.ts';
import { PAGE_MESSAGES, RUN_MESSAGES, keyLoadFailedMessage, alreadyDeliveredMessage } from '../../lib/userTexts.ts';
import { NOTICE_MS, UPLOADED_ENTRY_LINGER_MS, RETRY_DELAY_MS } from './timings.ts';
// The page's texts (the catalogue, src/lib/userTexts.ts) and notice times (timings.ts), re-exported for the page's components.
export { PAGE_MESSAGES, keyLoadFailedMessage, alreadyDeliveredMessage } from '../../lib/userTexts.ts';
export { NOTICE_MS, UPLOADED_ENTRY_LINGER_MS, RETRY_DELAY_MS } from './timings.ts';

/** What an upload seals file keys to (GET .../public-key). */
interface RecipientKey {
  publicKey: string;
  /** A team folder's current epoch; null: the owner's account key. */
  keyEpoch: number | null;
}

export interface UploadNotifier {
  show(variant: ToastVariant, message: string, durationMs?: number): void;
}

export interface UploadControllerDeps {
  dispatch: AppDispatch;
  getState: () => RootState;
  notifier: UploadNotifier;
  pool: () => EncryptorPool;
  transport: UploadTransport;
  journal: UploadJournal & ResumeCatalogue;
}

export class UploadController {
  private run: AbortController | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: UploadControllerDeps) {}

  get running(): boolean {
    return this.run !== null;
  }

  /**
   * Files picked or dropped; only in the steps where dropping is allowed. Files an interrupted
   * visit already stored (same path, name, size and date) are left out: selecting the same folder
   * again sends only what is missing.
   */
  async addFiles(candidates: readonly CandidateFile[]): Promise<void> {
    const { dispatch, getState, notifier } = this.deps;
    const { step, linkToken } = selectUploadStepState(getState());
    if (!canDropFiles(step)) return;
    const delivered = linkToken === null ? [] : await this.deps.journal.deliveredFiles(linkToken).catch(() => []);
    const deliveredIds = new Set(delivered.map((mark) => mark.id));
    const wanted =
      linkToken === null || deliveredIds.size === 0
        ? candidates
        : candidates.filter(({ file, relativePath }) => !deliveredIds.has(entryIdOf({ linkToken, relativePath, name: file.name, size: file.size, lastModified: file.lastModified })));
    if (wanted.length < candidates.length) notifier.show('info', alreadyDeliveredMessage(candidates.length - wanted.length), NOTICE_MS.page);
    const queued = selectQueuedFiles(getState());
    const selection = selectFiles(wanted, queued);
    if (selection.tooLarge.length > 0) notifier.show('error', tooLargeMessage(selection.tooLarge), NOTICE_MS.page);
    if (selection.rejected.length > 0) notifier.show('error', otherRejectedMessage(selection.rejected), NOTICE_MS.page);
    if (selection.accepted.length === 0) return;
    dispatch(
      filesQueued(
        selection.accepted.map(({ file, relativePath }) => ({
          id: registerFile(file),
          name: file.name,
          relativePath,
          size: file.size,
          lastModified: file.lastModified,
        })),
      ),
    );
  }

  removeFile(id: string): void {
    if (this.running || isUploadRunning(selectUploadStepState(this.deps.getState()).step)) return;
    this.deps.dispatch(fileRemoved({ id }));
    if (!selectQueuedFiles(this.deps.getState()).some((file) => file.id === id)) forgetFile(id);
  }

  /** Failed files (all, or one) go back to pending; processing restarts after 0.1 s. */
  retryFailed(id?: string): void {
    const { dispatch, getState, notifier } = this.deps;
    if (this.running) {
      notifier.show('warning', PAGE_MESSAGES.alreadyRunning, NOTICE_MS.page);
      return;
    }
    if (!selectQueuedFiles(getState()).some((file) => file.status === 'error' && (id === undefined || file.id === id))) {
      notifier.show('info', PAGE_MESSAGES.nothingToRetry, NOTICE_MS.page);
      return;
    }
    dispatch(failedFilesReset(id === undefined ? undefined : { ids: [id] }));
    this.later(RETRY_DELAY_MS, () => void this.startUpload());
  }

  downloadReceipt(): void {
    const state = this.deps.getState();
    const receipt = selectReceipt(state);
    if (receipt.length === 0) {
      this.deps.notifier.show('info', PAGE_MESSAGES.noReceipt, NOTICE_MS.page);
      return;
    }
    downloadReceipt(receipt, selectUploadStepState(state).link?.title ?? null);
  }

  /** Stops a running upload and pending timers (the page is going away). */
  stop(): void {
    this.run?.abort();
    this.run = null;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  async startUpload(): Promise<void> {
    const { dispatch, getState, notifier } = this.deps;
    if (this.running) {
      notifier.show('warning', PAGE_MESSAGES.alreadyRunning, NOTICE_MS.page);
      return;
    }
    const stepState = selectUploadStepState(getState());
    if (!canStartUpload(stepState.step) || stepState.linkToken === null || stepState.link === null) {
      notifier.show('error', PAGE_MESSAGES.unexpectedStep, NOTICE_MS.page);
      return;
    }
    const pending = selectQueuedFiles(getState()).filter((file) => file.status === 'pending' && fileOf(file.id));
    if (pending.length === 0) {
      notifier.show('info', PAGE_MESSAGES.nothingPending, NOTICE_MS.page);
      return;
    }
    const linkToken = stepState.linkToken;
    const abort = new AbortController();
    this.run = abort;
    try {
      const key = await this.loadRecipientKey(linkToken);
      if (abort.signal.aborted) return;
      if (key === null) return;
      dispatch(keyLoaded());
      notifier.show('info', PAGE_MESSAGES.keyLoaded, NOTICE_MS.keyLoaded);
      const files: UploadFile[] = await Promise.all(
        pending.map(async (entry) => {
          const file: UploadFile = {
            id: entry.id,
            file: fileOf(entry.id)!,
            name: entry.name,
            relativePath: entry.relativePath,
            size: entry.size,
            lastModified: entry.lastModified,
          };
          const resume = await this.resumePointFor(linkToken, file);
          return resume ? { ...file, resume } : file;
        }),
      );
      if (abort.signal.aborted) return;
      // A pending service-worker update is not offered while this runs (it would reload the page).
      const transferEnded = transferStarted();
      let counts: Awaited<ReturnType<UploadController['runEngine']>>;
      try {
        counts = await this.runEngine(files, linkToken, key, stepState.link.performMimeCheck, abort.signal);
      } finally {
        transferEnded();
      }
      if (abort.signal.aborted) return;
      const outcome = runOutcome(counts.counts);
      for (const toast of outcome.toasts) notifier.show(toast.variant, toast.message, NOTICE_MS.page);
      dispatch(filesConfirmed({ receipt: receiptEntriesOf(counts.stored) }));
      dispatch(runFinished({ errorMessage: outcome.stepError }));
      await this.deps.journal.runEnded(linkToken).catch(() => undefined);
      const storedIds = counts.stored.map((file) => file.id);
      if (storedIds.length > 0) {
        this.later(UPLOADED_ENTRY_LINGER_MS, () => {
          dispatch(uploadedFilesCleared({ ids: storedIds }));
          for (const id of storedIds) forgetFile(id);
        });
      }
    } catch (error) {
      // A failure of the run itself (a file's own failure is reported per file by the engine): the
      // page must not stay at "sending" with files in progress, and it must not become an
      // unhandled rejection of the button's handler. Retry then works as after any failed run.
      if (abort.signal.aborted) return;
      const message = describeApiError(error).message;
      console.error('upload: the run failed', error);
      dispatch(pendingFilesFailed({ error: message }));
      dispatch(runFinished({ errorMessage: message }));
      notifier.show('error', message, NOTICE_MS.page);
    } finally {
      if (this.run === abort) this.run = null;
    }
  }

  /** The unfinished uploads an earlier page (or attempt) left for this link (`abandonAfterMs`: the server's rule, when known). */
  unfinishedUploads(abandonAfterMs?: number): Promise<QueueEntry[]> {
    const linkToken = selectUploadStepState(this.deps.getState()).linkToken;
    return linkToken === null ? Promise.resolve([]) : this.deps.journal.unfinished(linkToken, abandonAfterMs);
  }

  /** How many files an interrupted visit to this link already stored. */
  async deliveredBefore(): Promise<number> {
    const linkToken = selectUploadStepState(this.deps.getState()).linkToken;
    return linkToken === null ? 0 : (await this.deps.journal.deliveredFiles(linkToken)).length;
  }

  /** The user gives up on an unfinished upload: the server's part is cancelled, the stored key deleted. */
  discardUnfinished(entryId: string): Promise<void> {
    return this.deps.journal.discard(entryId);
  }

  /**
   * A large file the journal knows under the same path, name, size and lastModified continues with
   * its stored key and IV. Nothing to continue, or a key that cannot be restored, means a fresh
   * key and IV (the lane then discards what is left): starting over is always safe.
   */
  private async resumePointFor(linkToken: string, file: UploadFile): Promise<ResumePoint | undefined> {
    if (file.size <= SMALL_FILE_MAX_BYTES) return undefined;
    try {
      return await this.deps.journal.resumePointFor({ linkToken, relativePath: file.relativePath, name: file.name, size: file.size, lastModified: file.lastModified });
    } catch (error) {
      console.warn('upload: the stored key of an unfinished upload could not be restored; the file starts over', error);
      return undefined;
    }
  }

  /**
   * The recipient's public key and, for a team folder, the epoch it belongs to; null after moving
   * the page to step 9.
   */
  private async loadRecipientKey(linkToken: string): Promise<RecipientKey | null> {
    const { dispatch, notifier } = this.deps;
    const result = await dispatch(uploadApi.endpoints.getUploadPublicKey.initiate(linkToken, { subscribe: false, forceRefetch: true }));
    const key = result.data?.public_key_spki;
    if (typeof key === 'string' && key !== '') return { publicKey: key, keyEpoch: result.data?.key_epoch ?? null };
    const described = result.error ? describeApiError(result.error) : null;
    const message =
      described === null || answeredWith(described, 'PUBLIC_KEY_MISSING', 404)
        ? PAGE_MESSAGES.keyMissing
        : keyLoadFailedMessage(described.message);
    dispatch(keyFailed({ message }));
    dispatch(pendingFilesFailed({ error: RUN_MESSAGES.encryptionKeyMissing }));
    notifier.show('error', message, NOTICE_MS.keyError);
    return null;
  }

  private async runEngine(
    files: UploadFile[],
    linkToken: string,
    recipient: RecipientKey,
    performMimeCheck: boolean,
    signal: AbortSignal,
  ): Promise<{ counts: RunCounts; stored: StoredFile[] }> {
    const { dispatch, notifier, transport, journal } = this.deps;
    const reporter = new ProgressReporter(files, (patches, overall) => dispatch(queueUpdated({ patches, overall })));
    const tally = new RunTally(
      files,
      reporter,
      (variant, message) => notifier.show(variant, message, NOTICE_MS.page),
      () => dispatch(sendingStarted()),
    );
    reporter.flush();
    const schedule = (batch: readonly UploadFile[], key: RecipientKey, events: EngineEvents) =>
      new UploadScheduler(
        {
          linkToken,
          recipientPublicKey: key.publicKey,
          keyEpoch: key.keyEpoch,
          performMimeCheck,
          pool: this.deps.pool(),
          transport,
          journal,
          describeError: describeUploadFailure,
          signal,
        },
        events,
      ).run(batch);
    try {
      // A team folder's key may change while files are sent (a member removed): the files the
      // server refused for the old epoch are sealed again to the new key, once.
      const hold = new FolderKeyHold(tally);
      await schedule(files, recipient, hold);
      if (hold.held.length > 0 && !signal.aborted) {
        const again = files.filter((file) => hold.held.includes(file.id));
        const fresh = await this.loadRecipientKey(linkToken);
        if (fresh === null) {
          for (const file of again) tally.finished(file.id, { kind: 'request-failed', code: FOLDER_KEY_CHANGED, reason: RUN_MESSAGES.encryptionKeyMissing });
        } else {
          await schedule(again, fresh, tally);
        }
      }
    } finally {
      reporter.flush();
      reporter.dispose();
    }
    return { counts: tally.counts, stored: tally.stored };
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}
