// Rate limit on wrong download-link passwords. A link password is guessed online only through
// verify-password, so failures are counted per link and client IP (RATE_LIMIT_ACCOUNT_FAILURES
// per window) and per client IP over all links (RATE_LIMIT_IP_FAILURES). The counters are the
// shared failure_counters rows, so several server processes see the same counts. There is no
// per-link total: it would let anyone lock the rightful recipient out.
import type { RateLimitConfig } from '../config.ts';
import type { Repositories } from '../db/repositories/index.ts';
import { RateLimitedError } from '../errors.ts';

const WHAT = 'failed password attempts';

export interface LinkPasswordLimits {
  /** Throws RateLimitedError while this IP may not try this link's password. */
  check(linkId: number, ip: string): Promise<void>;
  fail(linkId: number, ip: string): Promise<void>;
  succeed(linkId: number, ip: string): Promise<void>;
}

export function createLinkPasswordLimits(
  counters: Repositories['failureCounters'],
  limits: RateLimitConfig,
  now: () => number,
): LinkPasswordLimits {
  const linkIpKey = (linkId: number, ip: string) => `link-password:link:${linkId}:ip:${ip}`;
  const ipKey = (ip: string) => `link-password:ip:${ip}`;

  return {
    async check(linkId, ip) {
      const time = now();
      const [byLink, byIp] = await Promise.all([counters.get(linkIpKey(linkId, ip), time), counters.get(ipKey(ip), time)]);
      const blockedUntil = Math.max(
        byLink && byLink.failures >= limits.accountMaxFailures ? byLink.resetAt : 0,
        byIp && byIp.failures >= limits.ipMaxFailures ? byIp.resetAt : 0,
      );
      if (blockedUntil > time) throw new RateLimitedError(WHAT, Math.ceil((blockedUntil - time) / 1000));
    },
    async fail(linkId, ip) {
      const time = now();
      await counters.increment(linkIpKey(linkId, ip), time, limits.windowMs);
      await counters.increment(ipKey(ip), time, limits.windowMs);
      await counters.deleteExpired(time);
    },
    async succeed(linkId, ip) {
      await counters.clear(linkIpKey(linkId, ip));
    },
  };
}
