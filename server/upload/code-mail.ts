// The verification-code message. It names the folder (so the uploader knows which link asked for
// it) and says how long the code lives.
import type { OutgoingMail } from '../mail/mailer.ts';
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import { CODE_TTL_MS } from './verification-code.ts';

export function verificationCodeMail(to: string, folderTitle: string, code: string): OutgoingMail {
  const title = folderTitle.replace(CONTROL_CHARACTERS, ' ').trim() || 'an upload link';
  const minutes = CODE_TTL_MS / 60_000;
  return {
    to,
    subject: `Your upload code for "${title}"`,
    text: [
      `Your verification code for uploading files to "${title}" is:`,
      '',
      `    ${code}`,
      '',
      `Enter it on the upload page. The code expires in ${minutes} minutes and works once.`,
      'If you did not ask for it, you can ignore this message.',
      '',
    ].join('\n'),
  };
}
