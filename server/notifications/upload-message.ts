// The e-mail that tells an admin about uploads to one of their folders. It says as little as it
// can: the folder, how many files and how large, who uploaded when the folder verified the address,
// and where to sign in. File names and paths only when the admin asked for them for this folder
// (they are metadata the admin may not want in a mailbox). File contents are never known here.
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import type { NotifiedFile, UploadEvent } from '../db/repositories/upload-notifications.ts';
import { formatBytes } from '../recovery/progress.ts';

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
}

// Line breaks and other control characters never reach a header or a line of their own.
const oneLine = (text: string) => text.replace(CONTROL_CHARACTERS, ' ').trim();
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function uploadMessage(input: UploadMessageInput): OutgoingMail {
  const title = oneLine(input.folder.title);
  const fileCount = input.events.reduce((sum, event) => sum + event.fileCount, 0);
  const totalBytes = input.events.reduce((sum, event) => sum + event.totalBytes, 0);
  const summary = `${plural(fileCount, 'file')} (${formatBytes(totalBytes)})`;
  const uploaders = [...new Set(input.events.map((event) => event.uploaderEmail).filter((email): email is string => email !== null))];
  const lines = [
    input.kind === 'each'
      ? `${summary} were uploaded to your folder "${title}".`
      : `${summary} were uploaded to your folder "${title}" since the last summary.`,
  ];
  if (uploaders.length > 0) lines.push('', `Uploaded by (verified e-mail address): ${uploaders.join(', ')}`);
  if (input.files !== null && input.files.length > 0) {
    lines.push('', 'Files:');
    for (const file of input.files) {
      const place = file.relativePath === '.' ? '' : `${oneLine(file.relativePath)}/`;
      lines.push(`  ${place}${oneLine(file.originalFilename)} (${formatBytes(file.fileSize)})`);
    }
  }
  lines.push(
    '',
    input.origin === null
      ? `Open the folder: sign in to Sealdrop and open folder ${input.folder.id} ("${title}").`
      : `Open the folder: ${input.origin}/folders/view/${input.folder.id}`,
    '',
    'The files are end-to-end encrypted: sign in to download and decrypt them.',
    "You can change these notifications in the folder's settings.",
  );
  if (input.activityCheckpoint) lines.push('', `Activity log checkpoint: ${input.activityCheckpoint}`);
  const subject =
    input.kind === 'each' ? `New upload to "${title}": ${summary}` : `Uploads to "${title}": ${summary}`;
  return { to: input.to, subject, text: `${lines.join('\n')}\n` };
}
