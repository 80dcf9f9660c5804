// Errors of the webhook routes; the error handler answers each as {detail, code}.
import { HttpError } from '../errors.ts';

export class WebhookNotFoundError extends HttpError<'WEBHOOK_NOT_FOUND'> {
  constructor() {
    super('WEBHOOK_NOT_FOUND', 404, 'No webhook is set up.');
  }
}
