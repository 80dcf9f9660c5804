// The e-mail that tells an admin about uploads to one of their folders. It says as little as it
// can: the folder, how many files and how large, who uploaded when the folder verified the address,
// and where to sign in. File names and paths only when the admin asked for them for this folder
// (they are metadata the admin may not want in a mailbox). File contents are never known here.
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import type { NotifiedFile, UploadEvent } from '../db/repositories/upload-notifications.ts';
import { intlFor, type LanguageCode } from '../i18n/intl.ts';
import { formatBytes } from '../recovery/progress.ts';
import { defineMessages } from '../i18n/messages.ts';

export interface UploadMessageInput {
  to: string;
  folder: { id: number; title: string };
  events: readonly UploadEvent[];
  /** Listed only when the folder's setting includes file names. */
  files: readonly NotifiedFile[] | null;
  /**
   * Where the app is reached: PUBLIC_URL, or null without it (then the message names the folder
   * and carries no address: one from the upload's Host header could be anyone's).
   */
  origin: string | null;
  kind: 'each' | 'digest';
  /**
   * The signed checkpoint of the admin's newest activity entry: kept in the mailbox, outside the
   * server, it later shows entries removed after it (verify-activity --checkpoints <saved message>).
   */
  activityCheckpoint?: string | null;
  /** The recipient account's language (English when it never chose one). */
  language: LanguageCode;
}

const messages = defineMessages({
  summary: { id: 'email.upload.summary', defaultMessage: '{fileCount, plural, one {# file} other {# files}} ({size})' },
  bodyEach: { id: 'email.upload.bodyEach', defaultMessage: '{summary} were uploaded to your folder "{title}".' },
  bodyDigest: { id: 'email.upload.bodyDigest', defaultMessage: '{summary} were uploaded to your folder "{title}" since the last summary.' },
  uploadedBy: { id: 'email.upload.uploadedBy', defaultMessage: 'Uploaded by (verified e-mail address): {uploaders}' },
  files: { id: 'email.upload.files', defaultMessage: 'Files:' },
  openBySignIn: { id: 'email.upload.openBySignIn', defaultMessage: 'Open the folder: sign in to Sealdrop and open folder {folderId} ("{title}").' },
  openByLink: { id: 'email.upload.openByLink', defaultMessage: 'Open the folder: {url}' },
  encrypted: { id: 'email.upload.encrypted', defaultMessage: 'The files are end-to-end encrypted: sign in to download and decrypt them.' },
  settings: { id: 'email.upload.settings', defaultMessage: "You can change these notifications in the folder's settings." },
  checkpoint: { id: 'email.upload.checkpoint', defaultMessage: 'Activity log checkpoint: {checkpoint}' },
  subjectEach: { id: 'email.upload.subjectEach', defaultMessage: 'New upload to "{title}": {summary}' },
  subjectDigest: { id: 'email.upload.subjectDigest', defaultMessage: 'Uploads to "{title}": {summary}' },
});

// Line breaks and other control characters never reach a header or a line of their own.
const oneLine = (text: string) => text.replace(CONTROL_CHARACTERS, ' ').trim();

export function uploadMessage(input: UploadMessageInput): OutgoingMail {
  const intl = intlFor(input.language);
  const title = oneLine(input.folder.title);
  const fileCount = input.events.reduce((sum, event) => sum + event.fileCount, 0);
  const totalBytes = input.events.reduce((sum, event) => sum + event.totalBytes, 0);
  const size = (bytes: number) => formatBytes(bytes, intl.locale);
  const summary = intl.formatMessage(messages.summary, { fileCount, size: size(totalBytes) });
  const uploaders = [...new Set(input.events.map((event) => event.uploaderEmail).filter((email): email is string => email !== null))];
  const lines = [intl.formatMessage(input.kind === 'each' ? messages.bodyEach : messages.bodyDigest, { summary, title })];
  if (uploaders.length > 0) lines.push('', intl.formatMessage(messages.uploadedBy, { uploaders: uploaders.join(', ') }));
  if (input.files !== null && input.files.length > 0) {
    lines.push('', intl.formatMessage(messages.files));
    for (const file of input.files) {
      const place = file.relativePath === '.' ? '' : `${oneLine(file.relativePath)}/`;
      lines.push(`  ${place}${oneLine(file.originalFilename)} (${size(file.fileSize)})`);
    }
  }
  lines.push(
    '',
    input.origin === null
      ? intl.formatMessage(messages.openBySignIn, { folderId: String(input.folder.id), title })
      : intl.formatMessage(messages.openByLink, { url: `${input.origin}/folders/view/${input.folder.id}` }),
    '',
    intl.formatMessage(messages.encrypted),
    intl.formatMessage(messages.settings),
  );
  if (input.activityCheckpoint) lines.push('', intl.formatMessage(messages.checkpoint, { checkpoint: input.activityCheckpoint }));
  const subject = intl.formatMessage(input.kind === 'each' ? messages.subjectEach : messages.subjectDigest, { title, summary });
  return { to: input.to, subject, text: `${lines.join('\n')}\n` };
}
