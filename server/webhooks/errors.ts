// Errors of the webhook routes; the error handler answers each as {detail, code}.
import { HttpError } from '../errors.ts';

export class WebhookNotFoundError extends HttpError<'WEBHOOK_NOT_FOUND'> {
  constructor() {
    super('WEBHOOK_NOT_FOUND', 404, 'No webhook is set up.');
  }
}

/** Without PUBLIC_URL no webhook is saved: its events are read far from any request, so no address may come from one. */
export class WebhookNeedsPublicUrlError extends HttpError<'WEBHOOK_NEEDS_PUBLIC_URL'> {
  constructor() {
    super('WEBHOOK_NEEDS_PUBLIC_URL', 409, 'Webhooks need the server setting PUBLIC_URL (the address people open). Ask the operator to set it.');
  }
}
