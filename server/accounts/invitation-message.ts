// The invitation e-mail: who invited, the single-use link, and until when it works. The link's
// token is the invitation's capability (not a key: nothing it opens is encrypted with it).
import { CONTROL_CHARACTERS } from '../control-characters.ts';
import { intlFor, type LanguageCode } from '../i18n/intl.ts';
import { defineMessages } from '../i18n/messages.ts';
import type { OutgoingMail } from '../mail/mailer.ts';

const messages = defineMessages({
  subject: { id: 'email.invitation.subject', defaultMessage: 'You are invited to Sealdrop' },
  greetingNamed: { id: 'email.invitation.greetingNamed', defaultMessage: 'Hello {name},' },
  greeting: { id: 'email.invitation.greeting', defaultMessage: 'Hello,' },
  invites: {
    id: 'email.invitation.invites',
    defaultMessage: '{inviter} invites you to an account on Sealdrop, the end-to-end encrypted file exchange of your organisation.',
  },
  openLink: {
    id: 'email.invitation.openLink',
    defaultMessage: 'Open this link to choose your username and password, set up two-factor sign-in and create your encryption keys:',
  },
  validUntil: { id: 'email.invitation.validUntil', defaultMessage: 'The link works once, until {expiresAt}.' },
  unexpected: { id: 'email.invitation.unexpected', defaultMessage: 'If you did not expect this invitation, ignore this message.' },
});

const oneLine = (text: string) => text.replace(CONTROL_CHARACTERS, ' ').trim();

export function invitationUrl(origin: string, token: string): string {
  return `${origin}/invite/${token}`;
}

/** `language`: the inviting admin's, as their request asked (the invitee has no account yet). */
export function invitationMessage(input: { to: string; inviter: string; displayName: string | null; url: string; expiresAt: number; language: LanguageCode }): OutgoingMail {
  const intl = intlFor(input.language);
  const greeting = input.displayName ? intl.formatMessage(messages.greetingNamed, { name: oneLine(input.displayName) }) : intl.formatMessage(messages.greeting);
  // English keeps the RFC 7231 date it always had; other languages write the date their way (UTC named).
  const expiresAt =
    input.language === 'en'
      ? new Date(input.expiresAt).toUTCString()
      : intl.formatDate(input.expiresAt, { dateStyle: 'full', timeStyle: 'long', timeZone: 'UTC' });
  return {
    to: input.to,
    subject: intl.formatMessage(messages.subject),
    text: [
      greeting,
      '',
      intl.formatMessage(messages.invites, { inviter: oneLine(input.inviter) }),
      '',
      intl.formatMessage(messages.openLink),
      '',
      input.url,
      '',
      intl.formatMessage(messages.validUntil, { expiresAt }),
      intl.formatMessage(messages.unexpected),
      '',
    ].join('\n'),
  };
}
