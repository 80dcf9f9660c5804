// Rate limits on failed secrets: login passwords, authentication codes and re-entered passwords.
// Failures are counted per account and per client IP in the database (shared by all processes);
// once either count reaches its limit, attempts of that kind answer 429 until the window ends,
// even with the right secret. Successful attempts are not counted.
import { RateLimitedError } from '../errors.ts';
import { globalPlugin } from './global-plugin.ts';

export type FailureKind = 'login' | 'code' | 'password';

const WHAT: Record<FailureKind, string> = {
  login: 'failed login attempts',
  code: 'invalid authentication codes',
  password: 'failed password attempts',
};

export interface FailureLimits {
  /** Throws RateLimitedError when the account or the IP has used up its failures of this kind. */
  check(kind: FailureKind, account: string, ip: string): Promise<void>;
  /** Counts one failure for the account and the IP. */
  fail(kind: FailureKind, account: string, ip: string): Promise<void>;
  /** Forgets the account's failures of this kind after a success. */
  succeed(kind: FailureKind, account: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    failureLimits: FailureLimits;
  }
}

export const failureLimitsPlugin = globalPlugin('failure-limits', async (app) => {
  const counters = app.repos.failureCounters;
  const { accountMaxFailures, ipMaxFailures, windowMs } = app.config.rateLimit;
  const accountKey = (kind: FailureKind, account: string) => `${kind}:account:${account.toLowerCase()}`;
  const ipKey = (kind: FailureKind, ip: string) => `${kind}:ip:${ip}`;

  const limits: FailureLimits = {
    async check(kind, account, ip) {
      const now = app.now();
      const [byAccount, byIp] = await Promise.all([
        counters.get(accountKey(kind, account), now),
        counters.get(ipKey(kind, ip), now),
      ]);
      const blockedUntil = Math.max(
        byAccount && byAccount.failures >= accountMaxFailures ? byAccount.resetAt : 0,
        byIp && byIp.failures >= ipMaxFailures ? byIp.resetAt : 0,
      );
      if (blockedUntil > now) throw new RateLimitedError(WHAT[kind], Math.ceil((blockedUntil - now) / 1000));
    },
    async fail(kind, account, ip) {
      const now = app.now();
      await counters.increment(accountKey(kind, account), now, windowMs);
      await counters.increment(ipKey(kind, ip), now, windowMs);
      await counters.deleteExpired(now);
    },
    async succeed(kind, account) {
      await counters.clear(accountKey(kind, account));
    },
  };
  app.decorate('failureLimits', limits);
});
