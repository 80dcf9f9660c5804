// The activity log as `app.activity` (server/activity/activity-log.ts): routes call
// `record(userId, kind, facts)` after an action; entries older than ACTIVITY_RETENTION_DAYS are
// pruned hourly. Its keys derive from the activity chain key (ACTIVITY_CHAIN_KEY or
// DATA_DIR/activity-chain.key), and each entry's checkpoint is appended to ACTIVITY_ANCHOR_FILE.
// The webhook signing key is read only to verify entries written before the log had its own key.
import { createActivityLog, type ActivityLog } from '../activity/activity-log.ts';
import { openAnchorWriter } from '../activity/anchor-file.ts';
import { activityKeys, legacyChainKey } from '../activity/chain.ts';
import { loadActivityChainKey } from '../activity/chain-key.ts';
import { loadWebhookSigningKey } from '../webhooks/signing-secret.ts';
import { globalPlugin } from './global-plugin.ts';

const PRUNE_EVERY_MS = 3_600_000;

declare module 'fastify' {
  interface FastifyInstance {
    activity: ActivityLog;
  }
}

export const activityPlugin = globalPlugin('activity', async (app) => {
  const { config } = app;
  const chainKey = await loadActivityChainKey({ configured: config.activity.chainKey, dataDir: config.dataDir });
  const legacy = legacyChainKey(await loadWebhookSigningKey({ configured: config.webhooks.signingKey, dataDir: config.dataDir }));
  const anchor = await openAnchorWriter(config.activity.anchorFile);
  const activity = createActivityLog({ repos: app.repos, keys: activityKeys(chainKey, legacy), anchor, now: () => app.now(), log: app.log });
  app.decorate('activity', activity);

  const timer = setInterval(() => {
    activity
      .prune(app.now() - app.config.activityRetentionMs)
      .catch((error: unknown) => app.log.error({ err: error }, 'activity log pruning failed'));
  }, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await anchor.close();
  });
});
