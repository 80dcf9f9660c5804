// The server in the product's languages (docs/i18n.md): error details follow the request's
// Accept-Language, the account's chosen language is stored (PUT /api/auth/users/me/language) and
// its e-mails are written in it; anything else reads in English, as the contract's texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { MailCatcher } from './upload-helpers.ts';

const inbox = new MailCatcher();
let server: TestServer;
let admin: TestClient;

/** A mail's text with quoted-printable undone (soft breaks, =XX bytes) and read as UTF-8. */
function readable(mail: string): string {
  const bytes = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

async function mailTo(address: string, before: number): Promise<string> {
  await expect.poll(() => inbox.messages.slice(before).some((text) => text.toLowerCase().includes(`to: ${address}`))).toBe(true);
  return readable(inbox.messages.slice(before).find((text) => text.toLowerCase().includes(`to: ${address}`))!);
}

beforeAll(async () => {
  server = await startServer({ env: { SMTP_URL: await inbox.start() }, ownPublicUrl: true });
  await server.createUser('chef', 'chef password', 'chef@example.com');
  admin = server.client();
  expect((await admin.login('chef', 'chef password')).status).toBe(200);
});

afterAll(async () => {
  await server?.close();
  await inbox.stop();
});

describe('error details', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'Nicht angemeldet'],
    ['de', 'Nicht angemeldet'],
    ['fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5', 'Nicht angemeldet'],
    ['en-US', 'Not authenticated'],
    ['fr', 'Not authenticated'],
    ['de;q=0, en', 'Not authenticated'],
    [';;;,,q=,de;q=abc', 'Not authenticated'],
  ])('follow Accept-Language %j', async (acceptLanguage, detail) => {
    const answer = await server.client().get('/api/auth/users/me', { headers: { 'accept-language': acceptLanguage } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ code: 'NOT_AUTHENTICATED', detail });
  });

  it('are English without Accept-Language, as the contract gives them', async () => {
    const answer = await server.client().get('/api/auth/users/me');
    expect(answer.body).toEqual({ code: 'NOT_AUTHENTICATED', detail: 'Not authenticated' });
  });

  it('put the values of a detail into the translation', async () => {
    const folder = await admin.get('/api/folders/999999', { headers: { 'accept-language': 'de' } });
    expect(folder.status).toBe(404);
    expect(folder.body.detail).toBe('Ordner nicht gefunden');
  });
});

describe('PUT /api/auth/users/me/language', () => {
  it('refuses a language the server does not offer, a malformed one and a missing one with 422', async () => {
    for (const body of [{ language: 'fr' }, { language: 'de-DE-x-very-long-tag-!!' }, { language: 7 }, {}, { language: '' }]) {
      const answer = await admin.put('/api/auth/users/me/language', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('needs a session', async () => {
    const anonymous = server.client();
    await anonymous.primeCsrf();
    expect((await anonymous.put('/api/auth/users/me/language', { language: 'de' })).status).toBe(401);
  });

  it("stores the choice, and the account's invitation e-mails are then written in it", async () => {
    const answers = await Promise.all(['en', 'de', 'en', 'de'].map((language) => admin.put('/api/auth/users/me/language', { language })));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204]);
    expect((await admin.put('/api/auth/users/me/language', { language: 'de' })).status).toBe(204);

    const before = inbox.messages.length;
    const invited = await admin.post('/api/org/invitations', { email: 'neu@example.com', display_name: 'Frau Neu' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const mail = await mailTo('neu@example.com', before);
    expect(mail).toContain('Subject: Einladung zu Sealdrop');
    expect(mail).toContain('Guten Tag Frau Neu,');
    expect(mail).toContain('Der Link funktioniert einmal, bis ');
    expect(mail).not.toContain('invites you');

    expect((await admin.put('/api/auth/users/me/language', { language: 'en' })).status).toBe(204);
    const later = inbox.messages.length;
    expect((await admin.post('/api/org/invitations', { email: 'new@example.com' })).status).toBe(201);
    expect(await mailTo('new@example.com', later)).toContain('Subject: You are invited to Sealdrop');
  });
});
