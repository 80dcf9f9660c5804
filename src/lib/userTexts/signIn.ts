// Texts of the sign-in and of re-entered passwords under zero-knowledge sign-in: the
// one-time move of an account made before it, and what a session of such an account is told.
import { defineMessages } from '../../i18n/defineMessages.ts';
import { t, textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  /** Shown under the Sign In button while an account of the old scheme moves to the new one. */
  upgrading: { id: 'signIn.upgrade.inProgress', defaultMessage: 'Securing your account for the new sign-in...' },
  /** The move failed; the server rolled it back, so the old password and key still work. */
  upgradeFailed: {
    id: 'signIn.upgrade.failed',
    defaultMessage: 'Sign-in could not finish securing your account ({detail}). Nothing was changed: please sign in again.',
    description: 'detail is the server or network error, already in the current language',
  },
  /** A session of an account not yet moved (it signed in before the move) re-enters its password. */
  upgradeRequired: { id: 'signIn.upgrade.required', defaultMessage: 'Please sign out and sign in again: your account moves to the new sign-in when you do.' },
  /** Asked before the password itself is sent (an account of the old scheme); nothing is sent until confirmed. */
  oldSchemeConfirm: {
    id: 'signIn.oldScheme.confirm',
    defaultMessage:
      'This account still uses the old sign-in. To move it to the new one, your password itself must be sent to the server once. If you have signed in to this account with the new sign-in before, do not continue: the server may be trying to collect your password.',
  },
  oldSchemeSend: { id: 'signIn.oldScheme.send', defaultMessage: 'Send my password once' },
  oldSchemeCancel: { id: 'signIn.oldScheme.cancel', defaultMessage: 'Cancel' },
  /** A server asked for the password itself for an account that already signed in with its secret on this device. */
  upgradeRefused: {
    id: 'signIn.upgrade.refused',
    defaultMessage:
      'The server asked for your password itself, but this account already uses the new sign-in on this device. Nothing was sent. Your server or a proxy in front of it may be trying to collect your password; tell your administrator.',
  },
  /** The pre-login answer asked for weaker password protection than this app uses: nothing was derived or sent. */
  kdfRefused: {
    id: 'signIn.kdf.refused',
    defaultMessage: 'The server asked for weaker password protection than this app allows, so your password was not used and nothing was sent. Please contact your administrator.',
  },
  /**
   * The pre-login answer was bound to another name than the one typed, or was not bound to any
   * name for an account this device has seen bound: nothing was derived or sent.
   */
  kdfNameRefused: {
    id: 'signIn.kdf.nameRefused',
    defaultMessage:
      'The server answered password protection that is not tied to this username, so your password was not used and nothing was sent. Your server or a proxy in front of it may be trying to attack your password; tell your administrator.',
  },
});

export const SIGN_IN_TEXTS = Object.assign(
  textsOf({
    upgrading: messages.upgrading,
    upgradeRequired: messages.upgradeRequired,
    oldSchemeConfirm: messages.oldSchemeConfirm,
    oldSchemeSend: messages.oldSchemeSend,
    oldSchemeCancel: messages.oldSchemeCancel,
    upgradeRefused: messages.upgradeRefused,
    kdfRefused: messages.kdfRefused,
    kdfNameRefused: messages.kdfNameRefused,
  }),
  {
    upgradeFailed: (detail: string) => t(messages.upgradeFailed, { detail }),
  },
);
