// Delivers queued webhook events (docs/api.md "Webhooks"). A pass claims due deliveries (each by
// one process), POSTs each signed body with a timeout (transport.ts: never to a refused address), and records the outcome: any 2xx is
// delivered; anything else, a timeout or a refused connection is retried with exponential backoff
// up to MAX_ATTEMPTS, then marked failed. Nothing here runs inside the request that caused the event.
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories, WebhookDelivery } from '../db/repositories/index.ts';
import { endpointSecret, signatureHeader } from './signing-secret.ts';
import { postWebhook, WebhookAddressRefusedError } from './transport.ts';

export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 6 * 3_600_000;
const CLAIM_MS = 60_000;
const PER_PASS = 50;
const KEEP_FINISHED_MS = 30 * 24 * 3_600_000;

export interface DelivererDeps {
  repos: Repositories;
  signingKey: Buffer;
  log: FastifyBaseLogger;
  timeoutMs: number;
}

export interface DeliveryReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/** The wait before attempt `attempts + 1`: 30 s, 1, 2, 4 ... minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export async function deliverDue(deps: DelivererDeps, now: number): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, retrying: 0, failed: 0 };
  const claimed = await deps.repos.webhooks.claimDue(now, CLAIM_MS, PER_PASS);
  await Promise.all(claimed.map((delivery) => deliverOne(deps, delivery, now, report)));
  await deps.repos.webhooks.deleteFinishedBefore(now - KEEP_FINISHED_MS);
  return report;
}

async function deliverOne(deps: DelivererDeps, delivery: WebhookDelivery, now: number, report: DeliveryReport): Promise<void> {
  const endpoint = await deps.repos.webhooks.endpointById(delivery.endpointId);
  if (!endpoint) return; // removed meanwhile: its deliveries went with it (cascade)
  const timestamp = Math.floor(Date.now() / 1000);
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    statusCode = await postWebhook({
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Sealdrop-Webhooks/1',
        'sealdrop-event': delivery.eventType,
        'sealdrop-delivery': delivery.eventId,
        // Also inside the signature header (and so signed); on its own for receivers' logs and tools.
        'sealdrop-timestamp': String(timestamp),
        'sealdrop-signature': signatureHeader(endpointSecret(deps.signingKey, endpoint), timestamp, delivery.payload),
      },
      body: delivery.payload,
      timeoutMs: deps.timeoutMs,
    });
    if (statusCode >= 200 && statusCode < 300) {
      await deps.repos.webhooks.finish(delivery.id, { status: 'delivered', statusCode, error: null, nextAttemptAt: now, now });
      report.delivered += 1;
      return;
    }
    error = `HTTP ${statusCode}`;
  } catch (cause) {
    error = describe(cause);
  }
  const giveUp = delivery.attempts >= MAX_ATTEMPTS;
  await deps.repos.webhooks.finish(delivery.id, {
    status: giveUp ? 'failed' : 'pending',
    statusCode,
    error,
    nextAttemptAt: now + retryDelayMs(delivery.attempts),
    now,
  });
  if (giveUp) report.failed += 1;
  else report.retrying += 1;
  deps.log.warn({ deliveryId: delivery.id, attempt: delivery.attempts, statusCode, cause: error, gaveUp: giveUp }, 'webhook delivery failed');
}

function describe(cause: unknown): string {
  if (cause instanceof WebhookAddressRefusedError) return cause.message;
  if (cause instanceof Error) {
    if (cause.name === 'AbortError' && (cause.cause as Error | undefined)?.name === 'TimeoutError') return 'Timed out';
    const code = (cause as { code?: unknown }).code;
    return (typeof code === 'string' ? code : cause.message).slice(0, 300);
  }
  return 'Unknown error';
}
