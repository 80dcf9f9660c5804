// Tells admins about uploads (docs/operations.md, "Upload notifications"). Each pass takes a
// database lease, so one process at a time sends; for every folder with upload events not yet
// told it decides by the folder's setting: "each" sends one message once the folder has been quiet
// for NOTIFY_QUIET_SECONDS (one message per upload session, however many files and requests), "digest"
// once the oldest untold upload is NOTIFY_DIGEST_HOURS old, "off" (or an admin without an address)
// marks them told without sending. Events are stamped only after the SMTP server accepted the
// message; a failure schedules a retry with exponential backoff, and uploads never wait for any of it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { codedError } from '../../contract/coded-error.ts';
import type { Repositories } from '../db/repositories/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { uploadMessage } from './upload-message.ts';
import { storedLanguage, type LanguageCode } from '../i18n/intl.ts';

export const NOTIFY_LEASE = 'upload-notify';
/** Renewed before each folder's message. A holder that died frees it after this. */
const LEASE_MS = 5 * 60_000;
/**
 * A message that takes longer counts as failed and is retried later. Well inside the lease, so
 * no other process can take the lease and send the same events while this send still runs
 * (nodemailer's own socket timeout is 10 minutes).
 */
export const SEND_DEADLINE_MS = LEASE_MS / 3;
const FOLDERS_PER_PASS = 200;
const FIRST_RETRY_MS = 60_000;
/** How long told events are kept (they only serve to see what was sent). */
const KEEP_TOLD_MS = 30 * 24 * 3_600_000;
const MAX_RETRY_MS = 60 * 60_000;

export interface NotifierDeps {
  repos: Repositories;
  mailer: Mailer;
  log: FastifyBaseLogger;
  quietMs: number;
  digestMs: number;
  publicUrl: string | null;
  holder: string;
  /** The signed checkpoint of the account's newest activity entry, which the message carries (server/activity/checkpoint.ts). */
  activityCheckpoint?: (userId: number) => Promise<string | null>;
  /** Bound on one message's send (SEND_DEADLINE_MS; shorter in tests). */
  sendDeadlineMs?: number;
}

export interface NotifyReport {
  ran: boolean;
  sent: number;
  /** Events marked told without a message (notifications off, or the admin has no address). */
  skipped: number;
  failed: number;
}

export function notifierHolderName(): string {
  return `${hostname().slice(0, 30)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/** The wait before retry number `attempts + 1`: 1, 2, 4 ... minutes, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.min(attempts, 20), MAX_RETRY_MS);
}

export async function notifyUploads(deps: NotifierDeps, now: number): Promise<NotifyReport> {
  const { repos, holder } = deps;
  const report: NotifyReport = { ran: false, sent: 0, skipped: 0, failed: 0 };
  // The lease is on the real clock (other processes'), whatever `now` the pass works as of.
  const renew = () => repos.taskLeases.take(NOTIFY_LEASE, holder, Date.now(), LEASE_MS);
  if (!(await renew())) return report;
  report.ran = true;
  try {
    for (const pending of await repos.uploadNotifications.pendingFolders(now, FOLDERS_PER_PASS)) {
      if (!(await renew())) break;
      await notifyFolder(deps, pending, now, report);
    }
    await repos.uploadNotifications.deleteNotifiedBefore(now - KEEP_TOLD_MS);
  } finally {
    await repos.taskLeases.release(NOTIFY_LEASE, holder);
  }
  return report;
}

async function notifyFolder(
  deps: NotifierDeps,
  pending: { folderId: number; firstEventAt: number; lastEventAt: number },
  now: number,
  report: NotifyReport,
): Promise<void> {
  const { repos } = deps;
  const notifications = repos.uploadNotifications;
  const folder = await repos.folders.findForOperator(pending.folderId);
  if (!folder) return; // deleted meanwhile: its events went with it (cascade)
  const settings = await notifications.settingsFor(folder.id);
  const recipients = await recipientsOf(deps, folder);
  const events = await notifications.pendingEvents(folder.id);
  if (events.length === 0) return;
  const ids = events.map((event) => event.id);
  if (settings.mode === 'off' || recipients.length === 0) {
    await notifications.markNotified(ids, now);
    report.skipped += events.length;
    return;
  }
  const due = settings.mode === 'each' ? pending.lastEventAt <= now - deps.quietMs : pending.firstEventAt <= now - deps.digestMs;
  if (!due) return;
  const files = settings.includeFileNames ? await notifications.filesOf(folder.id, events.flatMap((event) => event.fileIds)) : null;
  const activityCheckpoint = await checkpointOf(deps, folder.ownerId);
  try {
    // One message per recipient: members never see each other's addresses.
    for (const { to, language } of recipients) {
      const message = uploadMessage({ to, language, folder: { id: folder.id, title: folder.title }, events, files, origin: deps.publicUrl, kind: settings.mode, activityCheckpoint });
      await withDeadline(deps.mailer.send(message), deps.sendDeadlineMs ?? SEND_DEADLINE_MS);
    }
  } catch (error) {
    const attempts = Math.max(...events.map((event) => event.attempts));
    const retryAt = now + retryDelayMs(attempts);
    await notifications.markFailed(ids, retryAt);
    report.failed += 1;
    // The message and the address stay out of the log; the cause and the folder go in.
    deps.log.warn({ folderId: folder.id, attempt: attempts + 1, retryAt: new Date(retryAt).toISOString(), cause: errorCode(error) }, 'upload notification not sent; will retry');
    return;
  }
  await notifications.markNotified(ids, now);
  report.sent += 1;
}

/**
 * Who is told: a personal folder's owner; a team folder's members who chose to be (PUT
 * team/me; the owner is by default), active accounts with an e-mail address only.
 */
/** Who is told, each in the language their account chose. */
async function recipientsOf(deps: NotifierDeps, folder: { id: number; ownerId: number }): Promise<Array<{ to: string; language: LanguageCode }>> {
  const members = await deps.repos.teamFolders.notifiedMembers(folder.id);
  if ((await deps.repos.teamFolders.head(folder.id)) !== undefined) {
    return members.flatMap((member) => (member.email ? [{ to: member.email, language: storedLanguage(member.language) }] : []));
  }
  const owner = await deps.repos.users.findById(folder.ownerId);
  return owner?.email ? [{ to: owner.email, language: storedLanguage(owner.language) }] : [];
}

/** The owner's activity checkpoint, or none: the message is worth sending without it. */
async function checkpointOf(deps: NotifierDeps, userId: number): Promise<string | null> {
  try {
    return (await deps.activityCheckpoint?.(userId)) ?? null;
  } catch (error) {
    deps.log.warn({ userId, cause: errorCode(error) }, 'upload notification sent without an activity checkpoint');
    return null;
  }
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.name : 'unknown';
}

class MailDeadlineError extends codedError('MAIL_DEADLINE') {
  constructor(ms: number) {
    super(`The SMTP server did not accept the message within ${ms} ms`);
  }
}

/** Settles with `work`, or rejects with MailDeadlineError after `ms` (the send itself is left to its socket timeout). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MailDeadlineError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
