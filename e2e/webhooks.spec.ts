// Signed webhooks in the real browser against the real server: an admin sets a webhook on the
// profile page, copies the signing secret, sends a test event, and sees it delivered; the local
// receiver checks the signature with node:crypto.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createAdmin, signIn } from './support/admin.ts';

const SHOTS_DIR = process.env.WEBHOOK_SHOTS_DIR ?? '/tmp/webhook-shots';

let receiver: Server;
let receiverUrl = '';
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/sealdrop-events`;
});

test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

test('an admin sets a webhook, sends a test event, and sees it delivered with a valid signature', async ({ page }) => {
  const admin = await createAdmin('hooks');
  await signIn(page, admin);
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.getByLabel('Webhook URL').fill('ftp://example.com');
  await section.getByRole('button', { name: 'Save Webhook' }).click();
  await expect(section.getByRole('alert')).toContainText('Enter an https:// URL without a user name or password');

  await section.getByLabel('Webhook URL').fill(receiverUrl);
  await section.getByRole('button', { name: 'Save Webhook' }).click();
  const secretField = section.getByLabel('Signing secret');
  await expect(secretField).toHaveValue(/^whsec_/);
  const secret = await secretField.inputValue();
  await expect(section.getByText('No deliveries yet.')).toBeVisible();

  await section.getByRole('button', { name: 'Send Test Event' }).click();
  await expect(section.getByText('Delivered (HTTP 204)')).toBeVisible({ timeout: 20_000 });
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await section.screenshot({ path: `${SHOTS_DIR}/webhook-section.png` });

  const delivery = received.find((item) => item.headers['sealdrop-event'] === 'webhook.test')!;
  const [t, v1] = String(delivery.headers['sealdrop-signature']).split(',').map((part) => part.split('=')[1]);
  expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex'));
  expect(JSON.parse(delivery.body)).toMatchObject({ type: 'webhook.test' });
});
