// The signed-in admin's webhook, mounted at /api/auth/webhook: read it (with its signing secret
// and the last deliveries), set or change its URL (optionally with a new secret), remove it, and
// queue a test event.
import type { FastifyInstance } from 'fastify';
import type { WebhookDelivery } from '../../db/repositories/index.ts';
import { signedIn } from '../../plugins/sessions.ts';
import type { ZodTypeProvider } from '../../plugins/zod-schemas.ts';
import { WebhookNeedsPublicUrlError, WebhookNotFoundError } from '../../webhooks/errors.ts';
import { newSecretNonce } from '../../webhooks/signing-secret.ts';
import { webhookBody, webhookResponse, webhookTestResponse } from '../../../contract/webhooks.ts';

const RECENT_DELIVERIES = 20;
const iso = (time: number) => new Date(time).toISOString();

function toDeliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    created_at: iso(delivery.createdAt),
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
  };
}

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { repos } = app;

  async function view(userId: number) {
    const endpoint = await repos.webhooks.endpointOf(userId);
    if (!endpoint) return { endpoint: null, deliveries: [] };
    const deliveries = await repos.webhooks.recent(endpoint.id, RECENT_DELIVERIES);
    return {
      endpoint: { url: endpoint.url, secret: app.webhooks.secretOf(endpoint), created_at: iso(endpoint.createdAt) },
      deliveries: deliveries.map(toDeliveryView),
    };
  }

  routes.get('/webhook', { schema: { response: { 200: webhookResponse } } }, async (request) => view(signedIn(request).user.id));

  routes.put('/webhook', { schema: { body: webhookBody, response: { 200: webhookResponse } } }, async (request) => {
    const { user } = signedIn(request);
    if (app.config.publicUrl === null) throw new WebhookNeedsPublicUrlError();
    await app.webhooks.checkUrl(request.body.url);
    const existing = await repos.webhooks.endpointOf(user.id);
    await repos.webhooks.saveEndpoint({
      userId: user.id,
      url: request.body.url,
      newSecretNonce: existing === undefined || request.body.rotate_secret === true ? newSecretNonce() : null,
      now: app.now(),
    });
    return view(user.id);
  });

  routes.delete('/webhook', async (request, reply) => {
    const { user } = signedIn(request);
    if (!(await repos.webhooks.deleteEndpoint(user.id))) throw new WebhookNotFoundError();
    return reply.code(204).send();
  });

  routes.post('/webhook/test', { schema: { response: { 202: webhookTestResponse } } }, async (request, reply) => {
    const { user } = signedIn(request);
    const id = await app.webhooks.emit(user.id, 'webhook.test', { message: 'This is a test event from Sealdrop.' });
    if (id === null) throw new WebhookNotFoundError();
    return reply.code(202).send({ delivery_id: id });
  });
}
