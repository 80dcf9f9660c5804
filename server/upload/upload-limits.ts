// Rate limits of the anonymous upload gates, on the shared failure-counter table (so every server
// process sees the same counts). Three kinds:
// - wrong link passwords, per link and client IP, and per client IP across links;
// - wrong verification codes, per link and address, and per client IP;
// - code requests (every request counts, since each sends a mail), per link and address, and per
//   client IP.
// Per link+IP rather than per link alone, so that a stranger cannot lock a link for everyone.
import type { Config } from '../config.ts';
import type { Repositories } from '../db/repositories/index.ts';
import { RateLimitedError } from '../errors.ts';

export type UploadLimitKind = 'link-password' | 'verification-code' | 'code-request';

const WHAT: Record<UploadLimitKind, string> = {
  'link-password': 'failed password attempts',
  'verification-code': 'invalid verification codes',
  'code-request': 'verification code requests',
};

export interface UploadLimitSubject {
  folderId: number;
  ip: string;
  /** The e-mail address, for the code kinds. */
  email?: string;
}

export interface UploadLimits {
  /** Throws RateLimitedError when the subject has used up its attempts of this kind. */
  check(kind: UploadLimitKind, subject: UploadLimitSubject): Promise<void>;
  /** Counts one attempt (a failure, or for code-request any request). */
  count(kind: UploadLimitKind, subject: UploadLimitSubject): Promise<void>;
  /** Forgets the per-link count after a success (the per-IP count stays). */
  clear(kind: UploadLimitKind, subject: UploadLimitSubject): Promise<void>;
}

export function createUploadLimits(
  counters: Repositories['failureCounters'],
  config: Pick<Config, 'rateLimit' | 'upload'>,
  now: () => number,
): UploadLimits {
  const { accountMaxFailures, ipMaxFailures, windowMs } = config.rateLimit;
  const perSubject: Record<UploadLimitKind, number> = {
    'link-password': accountMaxFailures,
    'verification-code': accountMaxFailures,
    'code-request': config.upload.codeRequestsPerAddress,
  };
  const perIp: Record<UploadLimitKind, number> = {
    'link-password': ipMaxFailures,
    'verification-code': ipMaxFailures,
    'code-request': config.upload.codeRequestsPerIp,
  };

  const subjectKey = (kind: UploadLimitKind, s: UploadLimitSubject) =>
    kind === 'link-password' ? `${kind}:link:${s.folderId}:${s.ip}` : `${kind}:link:${s.folderId}:${s.email ?? ''}`;
  const ipKey = (kind: UploadLimitKind, s: UploadLimitSubject) => `${kind}:ip:${s.ip}`;

  return {
    async check(kind, subject) {
      const at = now();
      const [bySubject, byIp] = await Promise.all([
        counters.get(subjectKey(kind, subject), at),
        counters.get(ipKey(kind, subject), at),
      ]);
      const blockedUntil = Math.max(
        bySubject && bySubject.failures >= perSubject[kind] ? bySubject.resetAt : 0,
        byIp && byIp.failures >= perIp[kind] ? byIp.resetAt : 0,
      );
      if (blockedUntil > at) throw new RateLimitedError(WHAT[kind], Math.ceil((blockedUntil - at) / 1000));
    },
    async count(kind, subject) {
      const at = now();
      await counters.increment(subjectKey(kind, subject), at, windowMs);
      await counters.increment(ipKey(kind, subject), at, windowMs);
      await counters.deleteExpired(at);
    },
    async clear(kind, subject) {
      await counters.clear(subjectKey(kind, subject));
    },
  };
}
