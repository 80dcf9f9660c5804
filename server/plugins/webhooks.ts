// Signed webhooks as `app.webhooks`: `emit` queues an event for the admin's endpoint (if any) and
// starts a delivery pass in the background, so the request that caused the event never waits for
// the receiver; `deliverDue(now?)` is one pass (also run every WEBHOOK_CHECK_SECONDS, which picks
// up retries and what another process queued); `secretOf` gives an endpoint's signing secret;
// `checkUrl` refuses a URL whose address the policy refuses (webhooks/address-policy.ts), before it
// is saved. Names are resolved by the `resolve` option (the system resolver unless a test maps them).
import { randomUUID } from 'node:crypto';
import type { WebhookEndpoint } from '../db/repositories/index.ts';
import { addressPolicy } from '../webhooks/address-policy.ts';
import { deliverDue, type DeliveryReport } from '../webhooks/deliverer.ts';
import { WebhookUrlRefusedError } from '../webhooks/errors.ts';
import { checkedAddress, WebhookAddressRefusedError, type HostResolver } from '../webhooks/transport.ts';
import { endpointSecret, loadWebhookSigningKey } from '../webhooks/signing-secret.ts';
import type { WebhookEventType } from '../../contract/webhooks.ts';
import { globalPlugin } from './global-plugin.ts';

export interface Webhooks {
  /** Queues the event for `userId`'s endpoint; returns the queued delivery's id, or null without an endpoint. Never throws. */
  emit(userId: number, type: WebhookEventType, data: Record<string, unknown>): Promise<number | null>;
  deliverDue(now?: number): Promise<DeliveryReport>;
  secretOf(endpoint: WebhookEndpoint): string;
  /** Throws WebhookUrlRefusedError when `url` points where no delivery may go (the same check each delivery makes as it connects). */
  checkUrl(url: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export const webhooksPlugin = globalPlugin<{ resolve?: HostResolver }>('webhooks', async (app, { resolve }) => {
  const { signingKey: configured, checkIntervalMs, timeoutMs, allowedNetworks } = app.config.webhooks;
  const signingKey = await loadWebhookSigningKey({ configured, dataDir: app.config.dataDir });
  const policy = addressPolicy(allowedNetworks);
  const deps = { repos: app.repos, signingKey, log: app.log, timeoutMs, policy, resolve };
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
    async checkUrl(url) {
      try {
        await checkedAddress(new URL(url), { policy, resolve });
      } catch (error) {
        // A name that does not resolve (yet) is saved: its deliveries fail alike until it does.
        if (!(error instanceof WebhookAddressRefusedError)) return;
        app.log.info({ address: error.address, why: error.why }, 'webhook URL refused');
        throw new WebhookUrlRefusedError();
      }
    },
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
