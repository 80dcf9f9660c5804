// Errors of the webhook routes; the error handler answers each as {detail, code}.
import { defineHttpError } from '../errors.ts';
import { defineMessages } from '../i18n/messages.ts';

/** The details in English; the error handler answers each in the request's language (server/i18n). */
const details = defineMessages({
  WEBHOOK_NOT_FOUND: { id: 'server.webhooks.webhookNotFound', defaultMessage: 'No webhook is set up.' },
  WEBHOOK_URL_REFUSED: { id: 'server.webhooks.webhookUrlRefused', defaultMessage: 'This webhook address is not allowed: it must be reachable on the public internet (or on a network the operator allowed with WEBHOOK_ALLOWED_NETWORKS).' },
  WEBHOOK_NEEDS_PUBLIC_URL: { id: 'server.webhooks.webhookNeedsPublicUrl', defaultMessage: 'Webhooks need the server setting PUBLIC_URL (the address people open). Ask the operator to set it.' },
});

export class WebhookNotFoundError extends defineHttpError('WEBHOOK_NOT_FOUND', 404, details.WEBHOOK_NOT_FOUND) {}

/** 422: the URL points at a loopback, private, link-local or other internal address, or is http:// outside WEBHOOK_ALLOWED_NETWORKS. */
export class WebhookUrlRefusedError extends defineHttpError(
  'WEBHOOK_URL_REFUSED',
  422,
  details.WEBHOOK_URL_REFUSED,
) {}

/** Without PUBLIC_URL no webhook is saved: its events are read far from any request, so no address may come from one. */
export class WebhookNeedsPublicUrlError extends defineHttpError(
  'WEBHOOK_NEEDS_PUBLIC_URL',
  409,
  details.WEBHOOK_NEEDS_PUBLIC_URL,
) {}
