// The invitation e-mail: who invited, the single-use link, and until when it works. The link's
// token is the invitation's capability (not a key: nothing it opens is encrypted with it).
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import type { OutgoingMail } from '../mail/mailer.ts';

const oneLine = (text: string) => text.replace(CONTROL_CHARACTERS, ' ').trim();

export function invitationUrl(origin: string, token: string): string {
  return `${origin}/invite/${token}`;
}

export function invitationMessage(input: { to: string; inviter: string; displayName: string | null; url: string; expiresAt: number }): OutgoingMail {
  const greeting = input.displayName ? `Hello ${oneLine(input.displayName)},` : 'Hello,';
  return {
    to: input.to,
    subject: 'You are invited to Sealdrop',
    text: [
      greeting,
      '',
      `${oneLine(input.inviter)} invites you to an account on Sealdrop, the end-to-end encrypted file exchange of your organisation.`,
      '',
      'Open this link to choose your username and password, set up two-factor sign-in and create your encryption keys:',
      '',
      input.url,
      '',
      `The link works once, until ${new Date(input.expiresAt).toUTCString()}.`,
      'If you did not expect this invitation, ignore this message.',
      '',
    ].join('\n'),
  };
}
