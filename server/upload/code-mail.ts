// The verification-code message. It names the folder (so the uploader knows which link asked for
// it) and says how long the code lives.
import type { OutgoingMail } from '../mail/mailer.ts';
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import { intlFor, type LanguageCode } from '../i18n/intl.ts';
import { defineMessages } from '../i18n/messages.ts';
import { CODE_TTL_MS } from './verification-code.ts';

const messages = defineMessages({
  untitled: { id: 'email.code.untitled', defaultMessage: 'an upload link', description: 'Stands for the folder title when it is empty' },
  subject: { id: 'email.code.subject', defaultMessage: 'Your upload code for "{title}"' },
  intro: { id: 'email.code.intro', defaultMessage: 'Your verification code for uploading files to "{title}" is:' },
  enter: { id: 'email.code.enter', defaultMessage: 'Enter it on the upload page. The code expires in {minutes} minutes and works once.' },
  ignore: { id: 'email.code.ignore', defaultMessage: 'If you did not ask for it, you can ignore this message.' },
});

/** `language`: the uploader's, as the upload page's request asked for it. */
export function verificationCodeMail(to: string, folderTitle: string, code: string, language: LanguageCode): OutgoingMail {
  const intl = intlFor(language);
  const title = folderTitle.replace(CONTROL_CHARACTERS, ' ').trim() || intl.formatMessage(messages.untitled);
  const minutes = CODE_TTL_MS / 60_000;
  return {
    to,
    subject: intl.formatMessage(messages.subject, { title }),
    text: [
      intl.formatMessage(messages.intro, { title }),
      '',
      `    ${code}`,
      '',
      intl.formatMessage(messages.enter, { minutes }),
      intl.formatMessage(messages.ignore),
      '',
    ].join('\n'),
  };
}
