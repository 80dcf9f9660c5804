// The one limiter behind every limit on guesses (passwords, authentication and e-mail codes) and
// on costly requests (sending a code by mail).
//
// An attempt is counted before the expensive check, not after it: `reserve` adds one to each
// counter the attempt is charged to, in order (the most specific first), each in one atomic
// statement in the shared database, and lets the attempt through only when no counter went past
// its limit. A refused attempt gives its counts back at once. A passed attempt keeps its counts while it is being checked, so however
// many requests run at once, in however many server processes, at most `max` attempts per counter
// and window are ever evaluated. After the check the caller says how it went: a wrong guess stays
// counted; a right one is given back (`succeeded`), and the counters marked `clearOnSuccess` are
// forgotten. A request that dies between the two leaves its attempt counted (fail closed).
import type { MessageDescriptor } from '../i18n/messages.ts';
import type { FailureCountersRepository } from '../db/repositories/failure-counters.ts';
import { RateLimitedError } from '../errors.ts';

export interface AttemptBudget {
  /** The counter, e.g. `login:account:alice` or `login:ip:203.0.113.7`. */
  key: string;
  /** Attempts allowed per window on this counter. */
  max: number;
  /** A successful attempt forgets this counter (e.g. the account's), instead of only not counting. */
  clearOnSuccess?: boolean;
}

export interface AttemptRule {
  /** Completes "Too many … Try again in N minutes." */
  what: MessageDescriptor;
  budgets: readonly AttemptBudget[];
}

export interface ReservedAttempt {
  /** The guess was right: the attempt is not counted, and `clearOnSuccess` counters are forgotten. */
  succeeded(): Promise<void>;
}

export interface AttemptLimiter {
  /** Counts one attempt on every budget of the rule; throws RateLimitedError when any is spent. */
  reserve(rule: AttemptRule): Promise<ReservedAttempt>;
}

interface Charged {
  budget: AttemptBudget;
  failures: number;
  resetAt: number;
}

export function createAttemptLimiter(
  counters: FailureCountersRepository,
  options: { windowMs: number; now: () => number },
): AttemptLimiter {
  const giveBack = (charged: readonly Charged[]) =>
    Promise.all(charged.map((c) => counters.decrement(c.budget.key, c.resetAt)));

  return {
    async reserve(rule) {
      const at = options.now();
      const charged: Charged[] = [];
      // One counter at a time, stopping at the first that is spent: an attempt refused by the
      // account's counter never touches the address's, so a burst against one account cannot
      // crowd out, even for a moment, the attempts another account may still make.
      for (const budget of rule.budgets) {
        let count;
        try {
          count = await counters.increment(budget.key, at, options.windowMs);
        } catch (error) {
          await giveBack(charged);
          throw error;
        }
        charged.push({ budget, ...count });
        if (count.failures > budget.max) {
          await giveBack(charged);
          throw new RateLimitedError(rule.what, Math.ceil((count.resetAt - at) / 1000));
        }
      }
      await counters.deleteExpired(at);
      return {
        async succeeded() {
          await Promise.all(
            charged.map((c) =>
              c.budget.clearOnSuccess ? counters.clear(c.budget.key) : counters.decrement(c.budget.key, c.resetAt),
            ),
          );
        },
      };
    },
  };
}
