// The frame around every screen: header, footer, language menu.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  homeLink: { id: 'layout.homeLink', defaultMessage: 'Sealdrop home' },
  encryptedBadge: { id: 'layout.encryptedBadge', defaultMessage: 'End-to-end encrypted' },
  aboutLink: { id: 'layout.aboutLink', defaultMessage: 'About Sealdrop and the code you are running' },
  languageMenu: { id: 'layout.languageMenu', defaultMessage: 'Language: {language}', description: 'The button that opens the list of languages; language is the current one, in its own name' },
  languageNotLoaded: { id: 'layout.languageNotLoaded', defaultMessage: 'The language could not be loaded. Check your connection and try again.' },
  languageNotSaved: {
    id: 'layout.languageNotSaved',
    defaultMessage: 'The language could not be saved to your account, so your e-mails stay in the previous one. Choose it again to retry.',
  },
});

export const LAYOUT_TEXTS = textsOf({
  homeLink: messages.homeLink,
  encryptedBadge: messages.encryptedBadge,
  aboutLink: messages.aboutLink,
  languageNotLoaded: messages.languageNotLoaded,
  languageNotSaved: messages.languageNotSaved,
});

export const LAYOUT_MESSAGES = messages;
