// What both lanes of one run share: its settings, its events, the stop signal, and the two rules
// every file ends by: how a failure is reported, and how a server answer is matched to the files it
// is about (the spec's result-matching key rule, resultMatching.ts).

import { describeApiError } from '../../../api/errors.ts';
import type { UploadResult } from '../../../api/types.ts';
import { isUploadResult, matchResults, type FileOutcome, type SentFile } from '../resultMatching.ts';
import type { DescribedFailure, EncryptionSessionLike, EncryptorPool, FileIdentity, SmallFileEncryption, UploadFile, UploadJournal } from './enginePorts.ts';
import { checkContent, closeSession, encryptSmallGroup, openSession } from './fileOpening.ts';
import { ProcessingFailure } from './processingFailure.ts';
import type { EngineEvents, FinalOutcome } from './runEvents.ts';
import type { HashPlacement } from './uploadLimits.ts';

export interface RunSettings {
  linkToken: string;
  recipientPublicKey: string;
  /** The team folder's key epoch `recipientPublicKey` belongs to (null: the owner's account key); sent with every upload. */
  keyEpoch: number | null;
  performMimeCheck: boolean;
  pool: EncryptorPool;
  /** Describes a failed request the way the page shows it (api/errors.ts). */
  describeError: (error: unknown) => DescribedFailure;
  signal: AbortSignal;
  /** Told of every stored file (so an interrupted folder is not sent twice); none in some tests. */
  journal?: UploadJournal;
}

/** The app's one error mapping, as the engine reports it: the server's code when it sent one. */
export function describeUploadFailure(error: unknown): DescribedFailure {
  const described = describeApiError(error);
  return { code: described.serverCode ?? described.appCode ?? described.code, message: described.message };
}

function toFinal(outcome: FileOutcome, sha256: string): FinalOutcome {
  if (outcome.ok) return { kind: 'stored', serverId: outcome.serverId, sha256 };
  return outcome.unreported ? { kind: 'unreported', error: outcome.error } : { kind: 'server-failed', error: outcome.error };
}

export class RunContext {
  private sendingAnnounced = false;

  constructor(
    readonly settings: RunSettings,
    readonly events: EngineEvents,
  ) {}

  get aborted(): boolean {
    return this.settings.signal.aborted;
  }

  announceSending(): void {
    if (this.sendingAnnounced) return;
    this.sendingAnnounced = true;
    this.events.sendingStarted();
  }

  async checkContent(file: UploadFile): Promise<void> {
    if (this.settings.performMimeCheck) await checkContent(file);
  }

  open(file: UploadFile, hashPlacement?: HashPlacement): Promise<EncryptionSessionLike> {
    return openSession(this.settings.pool, file, this.settings.recipientPublicKey, hashPlacement);
  }

  /**
   * Small files encrypted whole in one pool message, their multipart parts written with `boundary`
   * where the pool spools them; rejects (WorkerUnresponsiveError) only as a whole.
   */
  encryptSmall(files: readonly UploadFile[], boundary: string): Promise<SmallFileEncryption[]> {
    return encryptSmallGroup(this.settings.pool, files, this.settings.recipientPublicKey, boundary);
  }

  /** Starts closing the session (never waited for: fileOpening.ts, closeSession). */
  close(session: EncryptionSessionLike): void {
    closeSession(this.settings.pool, session);
  }

  /** The file failed for good; a stopped run reports nothing more. */
  fail(file: UploadFile, error: unknown): void {
    if (this.aborted) return;
    if (error instanceof ProcessingFailure) {
      this.events.finished(file.id, { kind: 'processing-failed', code: error.code, error: error.fileError, reason: error.reason });
      return;
    }
    const described = this.settings.describeError(error);
    this.events.finished(file.id, { kind: 'request-failed', code: described.code, reason: described.message });
  }

  /**
   * Matches an answer to the files it is about and reports each file's outcome. An answer that is
   * not an Upload result (empty, null, HTML, a bare string) confirms nothing: every file of it is
   * unreported, never stored.
   */
  settle(files: readonly UploadFile[], body: unknown, sha256Of: (id: string) => string): void {
    if (this.aborted) return;
    const answered = isUploadResult(body);
    const result: UploadResult = answered ? body : { successful_files: [], failed_files: [] };
    if (!answered) this.events.emptyResponse();
    const sent: SentFile[] = files.map((f) => ({ id: f.id, name: f.name, relativePath: f.relativePath }));
    const outcomes = matchResults(sent, result);
    // The answer's stored files are journalled together (one write), before they are reported.
    const byId = new Map(files.map((file) => [file.id, file]));
    const { linkToken } = this.settings;
    const stored: FileIdentity[] = [];
    for (const [id, outcome] of outcomes) {
      const file = byId.get(id);
      if (outcome.ok && file) stored.push({ linkToken, relativePath: file.relativePath, name: file.name, size: file.size, lastModified: file.lastModified });
    }
    if (stored.length > 0) this.settings.journal?.deliveredMany(stored);
    for (const [id, outcome] of outcomes) this.events.finished(id, toFinal(outcome, sha256Of(id)));
  }
}
