// Signed webhooks of an admin (docs/api.md "Webhooks"): the endpoint, its signing secret, the
// events and the recent deliveries. Messages are written for people.
import { z } from 'zod';

export const WEBHOOK_EVENT_TYPES = ['upload.completed', 'link.created', 'link.downloaded', 'files.deleted', 'folder.expired', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** PUT /auth/webhook. */
export const webhookBody = z.object({
  url: z
    .string({ error: 'The webhook URL must be text' })
    .trim()
    .max(2048, 'The webhook URL must be at most 2048 characters')
    .refine((value) => {
      try {
        const url = new URL(value);
        // Plain http:// only reaches networks the operator allowed: the server checks the address (WEBHOOK_URL_REFUSED).
        const scheme = url.protocol === 'https:' || url.protocol === 'http:';
        return scheme && url.username === '' && url.password === '';
      } catch {
        return false;
      }
    }, 'Enter an https:// URL without a user name or password'),
  /** Make a new signing secret (the old one stops working at once). */
  rotate_secret: z.boolean({ error: 'Rotate secret must be true or false' }).optional(),
});
export type WebhookBody = z.input<typeof webhookBody>;

export const webhookDelivery = z.object({
  id: z.number(),
  event_id: z.string(),
  event_type: z.string(),
  created_at: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDelivery>;

/** GET /auth/webhook: `endpoint` null when none is set. */
export const webhookResponse = z.object({
  endpoint: z
    .object({
      url: z.string(),
      /** The signing secret (whsec_…): the receiver checks Sealdrop-Signature with it. */
      secret: z.string(),
      created_at: z.string(),
    })
    .nullable(),
  deliveries: z.array(webhookDelivery),
});
export type WebhookResponse = z.infer<typeof webhookResponse>;

/** POST /auth/webhook/test. */
export const webhookTestResponse = z.object({ delivery_id: z.number() });
