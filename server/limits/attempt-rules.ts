// Which counters each kind of attempt is charged to, and their limits (RATE_LIMIT_* and
// UPLOAD_CODE_REQUESTS_* in docs/operations.md). Every guess is limited twice: on what is being
// guessed (an account, or a link from one IP) and on the client IP over everything.
//
// - Sign-in passwords and codes: per account (the typed username at login, the user id once
//   signed in, so that renaming does not reset it) and per IP. A right login or code forgets
//   the account's count; a right re-entered password only is not counted.
// - Link passwords (upload and download links): per link and IP rather than per link alone, so
//   that a stranger cannot lock a link for everyone, and per IP over all links of both kinds; a
//   right password forgets the link's count.
// - Upload e-mail codes: per link and address, and per IP; a right code forgets the first.
// - Code requests: every request counts (each sends a mail), per link and address, and per IP.
// - Pre-login calls: every call counts, per IP (a name's parameters are no guess, but a flood of
//   look-ups is bounded like everything else an anonymous caller can ask about accounts).
// - New recipients of a download link (a request without a recipient cookie the server issued):
//   every one counts, per IP over all links first (so one client is stopped before it can use up
//   a link's budget), then per link (bounding what many clients together can add for one link).
//   Requests of a known recipient are not counted: a ZIP of many files is many requests.
import type { Config } from '../config.ts';
import { defineMessages } from '../i18n/messages.ts';
import type { AttemptRule } from './attempt-limiter.ts';

/** What was tried too often, as "Too many {what}." names it (server/errors.ts, RateLimitedError). */
const WHAT = defineMessages({
  failedLogins: { id: 'server.limits.failedLogins', defaultMessage: 'failed login attempts' },
  invalidAuthCodes: { id: 'server.limits.invalidAuthCodes', defaultMessage: 'invalid authentication codes' },
  failedPasswords: { id: 'server.limits.failedPasswords', defaultMessage: 'failed password attempts' },
  failedPasskeys: { id: 'server.limits.failedPasskeys', defaultMessage: 'failed passkey sign-ins' },
  signInRequests: { id: 'server.limits.signInRequests', defaultMessage: 'sign-in requests' },
  invalidCodes: { id: 'server.limits.invalidCodes', defaultMessage: 'invalid verification codes' },
  codeRequests: { id: 'server.limits.codeRequests', defaultMessage: 'verification code requests' },
  downloadRequests: { id: 'server.limits.downloadRequests', defaultMessage: 'download requests' },
});

export type AccountAttemptKind = 'login' | 'code' | 'password';

const ACCOUNT_WHAT = {
  login: WHAT.failedLogins,
  code: WHAT.invalidAuthCodes,
  password: WHAT.failedPasswords,
} satisfies Record<AccountAttemptKind, unknown>;

export type AttemptRules = ReturnType<typeof createAttemptRules>;

export function createAttemptRules(config: Pick<Config, 'rateLimit' | 'upload'>) {
  const { accountMaxFailures, ipMaxFailures, preloginPerIp, linkRecipientsPerIp, linkRecipientsPerLink } = config.rateLimit;
  const { codeRequestsPerAddress, codeRequestsPerIp } = config.upload;

  return {
    /** `account`: the typed username for login, `accountLimitKey(user)` for a signed-in user. */
    account(kind: AccountAttemptKind, account: string, ip: string): AttemptRule {
      return {
        what: ACCOUNT_WHAT[kind],
        budgets: [
          { key: `${kind}:account:${account.toLowerCase()}`, max: accountMaxFailures, clearOnSuccess: kind !== 'password' },
          { key: `${kind}:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },

    /** A passkey sign-in: refusals per IP (there is no account to count against before the assertion verifies). */
    passkeySignIn(ip: string): AttemptRule {
      return { what: WHAT.failedPasskeys, budgets: [{ key: `passkey:ip:${ip}`, max: ipMaxFailures }] };
    },

    prelogin(ip: string): AttemptRule {
      return { what: WHAT.signInRequests, budgets: [{ key: `prelogin:ip:${ip}`, max: preloginPerIp }] };
    },

    uploadLinkPassword(folderId: number, ip: string): AttemptRule {
      return {
        what: WHAT.failedPasswords,
        budgets: [
          { key: `link-password:link:${folderId}:${ip}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `link-password:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },

    uploadVerificationCode(folderId: number, email: string, ip: string): AttemptRule {
      return {
        what: WHAT.invalidCodes,
        budgets: [
          { key: `verification-code:link:${folderId}:${email}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `verification-code:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },

    uploadCodeRequest(folderId: number, email: string, ip: string): AttemptRule {
      return {
        what: WHAT.codeRequests,
        budgets: [
          { key: `code-request:link:${folderId}:${email}`, max: codeRequestsPerAddress },
          { key: `code-request:ip:${ip}`, max: codeRequestsPerIp },
        ],
      };
    },

    downloadLinkRecipient(linkId: number, ip: string): AttemptRule {
      return {
        what: WHAT.downloadRequests,
        budgets: [
          { key: `link-recipient:ip:${ip}`, max: linkRecipientsPerIp },
          { key: `link-recipient:link:${linkId}`, max: linkRecipientsPerLink },
        ],
      };
    },

    downloadLinkPassword(linkId: number, ip: string): AttemptRule {
      return {
        what: WHAT.failedPasswords,
        budgets: [
          { key: `link-password:link:${linkId}:ip:${ip}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `link-password:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },
  };
}
