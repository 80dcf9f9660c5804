// Signed webhooks as `app.webhooks`: `emit` queues an event for the admin's endpoint (if any) and
// starts a delivery pass in the background, so the request that caused the event never waits for
// the receiver; `deliverDue(now?)` is one pass (also run every WEBHOOK_CHECK_SECONDS, which picks
// up retries and what another process queued); `secretOf` gives an endpoint's signing secret.
import { randomUUID } from 'node:crypto';
import type { WebhookEndpoint } from '../db/repositories/index.ts';
import { deliverDue, type DeliveryReport } from '../webhooks/deliverer.ts';
import { endpointSecret, loadWebhookSigningKey } from '../webhooks/signing-secret.ts';
import type { WebhookEventType } from '../../contract/webhooks.ts';
import { globalPlugin } from './global-plugin.ts';

export interface Webhooks {
  /** Queues the event for `userId`'s endpoint; returns the queued delivery's id, or null without an endpoint. Never throws. */
  emit(userId: number, type: WebhookEventType, data: Record<string, unknown>): Promise<number | null>;
  deliverDue(now?: number): Promise<DeliveryReport>;
  secretOf(endpoint: WebhookEndpoint): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export const webhooksPlugin = globalPlugin('webhooks', async (app) => {
  const { signingKey: configured, checkIntervalMs, timeoutMs } = app.config.webhooks;
  const signingKey = await loadWebhookSigningKey({ configured, dataDir: app.config.dataDir });
  const deps = { repos: app.repos, signingKey, log: app.log, timeoutMs };
  const pass = async (now?: number) => {
    const report = await deliverDue(deps, now ?? app.now());
    app.metrics.webhookDeliveries(report);
    return report;
  };

  const webhooks: Webhooks = {
    async emit(userId, type, data) {
      try {
        const endpoint = await app.repos.webhooks.endpointOf(userId);
        if (!endpoint) return null;
        const now = app.now();
        const eventId = randomUUID();
        // The account's newest activity entry, signed: a receiver that keeps payloads keeps evidence
        // of how far the log had reached (docs/api.md "Webhooks").
        const activityCheckpoint = await app.activity.checkpoint(userId).catch((error: unknown) => {
          app.log.warn({ err: error, type }, 'webhook event sent without an activity checkpoint');
          return null;
        });
        const payload = JSON.stringify({ id: eventId, type, created_at: new Date(now).toISOString(), data, activity_checkpoint: activityCheckpoint });
        const id = await app.repos.webhooks.enqueue({ endpointId: endpoint.id, eventId, eventType: type, payload, now });
        app.background.run(() => pass(), (error) => app.log.error({ err: error }, 'webhook delivery pass failed'));
        return id;
      } catch (error) {
        app.log.warn({ err: error, type }, 'could not queue a webhook event');
        return null;
      }
    },
    deliverDue: pass,
    secretOf: (endpoint) => endpointSecret(signingKey, endpoint),
  };
  app.decorate('webhooks', webhooks);

  if (checkIntervalMs === 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pass()
      .catch((error: unknown) => app.log.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => {
        running = false;
      });
  }, checkIntervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
});
