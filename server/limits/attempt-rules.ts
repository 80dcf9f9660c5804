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
import type { AttemptRule } from './attempt-limiter.ts';

export type AccountAttemptKind = 'login' | 'code' | 'password';

const ACCOUNT_WHAT: Record<AccountAttemptKind, string> = {
  login: 'failed login attempts',
  code: 'invalid authentication codes',
  password: 'failed password attempts',
};

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
      return { what: 'failed passkey sign-ins', budgets: [{ key: `passkey:ip:${ip}`, max: ipMaxFailures }] };
    },

    prelogin(ip: string): AttemptRule {
      return { what: 'sign-in requests', budgets: [{ key: `prelogin:ip:${ip}`, max: preloginPerIp }] };
    },

    uploadLinkPassword(folderId: number, ip: string): AttemptRule {
      return {
        what: 'failed password attempts',
        budgets: [
          { key: `link-password:link:${folderId}:${ip}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `link-password:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },

    uploadVerificationCode(folderId: number, email: string, ip: string): AttemptRule {
      return {
        what: 'invalid verification codes',
        budgets: [
          { key: `verification-code:link:${folderId}:${email}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `verification-code:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },

    uploadCodeRequest(folderId: number, email: string, ip: string): AttemptRule {
      return {
        what: 'verification code requests',
        budgets: [
          { key: `code-request:link:${folderId}:${email}`, max: codeRequestsPerAddress },
          { key: `code-request:ip:${ip}`, max: codeRequestsPerIp },
        ],
      };
    },

    downloadLinkRecipient(linkId: number, ip: string): AttemptRule {
      return {
        what: 'download requests',
        budgets: [
          { key: `link-recipient:ip:${ip}`, max: linkRecipientsPerIp },
          { key: `link-recipient:link:${linkId}`, max: linkRecipientsPerLink },
        ],
      };
    },

    downloadLinkPassword(linkId: number, ip: string): AttemptRule {
      return {
        what: 'failed password attempts',
        budgets: [
          { key: `link-password:link:${linkId}:ip:${ip}`, max: accountMaxFailures, clearOnSuccess: true },
          { key: `link-password:ip:${ip}`, max: ipMaxFailures },
        ],
      };
    },
  };
}
