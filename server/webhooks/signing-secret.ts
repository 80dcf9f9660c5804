// The secret each webhook endpoint's deliveries are signed with. It is derived, not stored:
// HMAC-SHA256(server webhook key, endpoint id + nonce), so the database alone cannot forge a
// delivery. The server key comes from WEBHOOK_SIGNING_KEY (set the same value on every process of
// a deployment) or, for the single-process default, from DATA_DIR/webhook-signing.key, created
// on first use with 256 random bits and mode 0600.
import { createHmac, randomBytes } from 'node:crypto';
import { keyFromSetting, loadOrCreateKeyFile } from '../secrets/key-file.ts';

const KEY_FILE = 'webhook-signing.key';
export const SECRET_PREFIX = 'whsec_';

export async function loadWebhookSigningKey(options: { configured: string | null; dataDir: string }): Promise<Buffer> {
  if (options.configured !== null) return keyFromSetting(options.configured);
  return loadOrCreateKeyFile(options.dataDir, KEY_FILE);
}

export function newSecretNonce(): string {
  return randomBytes(16).toString('base64url');
}

export function endpointSecret(signingKey: Buffer, endpoint: { id: number; secretNonce: string }): string {
  const mac = createHmac('sha256', signingKey).update(`sealdrop-webhook/v1:${endpoint.id}:${endpoint.secretNonce}`).digest('base64url');
  return `${SECRET_PREFIX}${mac}`;
}

/**
 * The Sealdrop-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`,
 * the convention of Stripe's webhooks. The receiver recomputes it and refuses a timestamp older
 * than it tolerates (docs/api.md "Webhooks": 5 minutes), which stops replays.
 */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
