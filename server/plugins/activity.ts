// The activity log as `app.activity` (server/activity/activity-log.ts): routes call
// `record(userId, kind, facts)` after an action; entries older than ACTIVITY_RETENTION_DAYS are
// pruned hourly. The IP and chain HMAC keys are derived from the server key (the webhook signing key).
import { createActivityLog, type ActivityLog } from '../activity/activity-log.ts';
import { activityKeys } from '../activity/chain.ts';
import { loadWebhookSigningKey } from '../webhooks/signing-secret.ts';
import { globalPlugin } from './global-plugin.ts';

const PRUNE_EVERY_MS = 3_600_000;

declare module 'fastify' {
  interface FastifyInstance {
    activity: ActivityLog;
  }
}

export const activityPlugin = globalPlugin('activity', async (app) => {
  const serverKey = await loadWebhookSigningKey({ configured: app.config.webhooks.signingKey, dataDir: app.config.dataDir });
  const activity = createActivityLog({ repos: app.repos, keys: activityKeys(serverKey), now: () => app.now(), log: app.log });
  app.decorate('activity', activity);

  const timer = setInterval(() => {
    activity
      .prune(app.now() - app.config.activityRetentionMs)
      .catch((error: unknown) => app.log.error({ err: error }, 'activity log pruning failed'));
  }, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
