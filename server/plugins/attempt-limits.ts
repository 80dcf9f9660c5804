// `app.attempts`: the one attempt limiter (reserve before the expensive check) and the rules that
// say which counters each kind of guess is charged to. See server/limits/.
import { createAttemptLimiter, type AttemptLimiter } from '../limits/attempt-limiter.ts';
import { createAttemptRules, type AttemptRules } from '../limits/attempt-rules.ts';
import { globalPlugin } from './global-plugin.ts';

export interface Attempts {
  limiter: AttemptLimiter;
  rules: AttemptRules;
}

declare module 'fastify' {
  interface FastifyInstance {
    attempts: Attempts;
  }
}

export const attemptLimitsPlugin = globalPlugin('attempt-limits', async (app) => {
  const limiter = createAttemptLimiter(app.repos.failureCounters, {
    windowMs: app.config.rateLimit.windowMs,
    now: () => app.now(),
  });
  app.decorate('attempts', { limiter, rules: createAttemptRules(app.config) });
});
