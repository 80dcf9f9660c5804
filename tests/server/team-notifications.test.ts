// A team folder's upload notifications over real HTTP and a real SMTP server: each member who
// chose them (PUT team/me; the owner by default) gets a message of their own, the others none;
// members change only their own choice; a removed member is told nothing more.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';
import { MailCatcher, MultipartBody, postMultipart } from './upload-helpers.ts';
import { teamAccount, TeamModel, type TeamAccount } from './support/team-crypto.ts';

const QUIET_MS = 300_000;
const inbox = new MailCatcher();
let server: TestServer;

beforeAll(async () => {
  const smtpUrl = await inbox.start();
  server = await startServer({ env: { SMTP_URL: smtpUrl, PUBLIC_URL: 'https://sealdrop.test', NOTIFY_CHECK_SECONDS: '0', NOTIFY_QUIET_SECONDS: String(QUIET_MS / 1000) } });
});
afterAll(async () => {
  await server?.close();
  await inbox.stop();
});

const mailTo = (account: { email: string }) => inbox.messages.filter((message) => message.toLowerCase().includes(`to: ${account.email.toLowerCase()}`));

async function member(name: string): Promise<TeamAccount & { email: string }> {
  const email = `${name}-${randomBytes(3).toString('hex')}@example.com`;
  return { ...(await teamAccount(server, name, email)), email };
}

async function uploadTo(linkToken: string, epoch: number): Promise<void> {
  const body = new MultipartBody().field('key_epoch', String(epoch)).files([{ name: 'scan.pdf', data: randomBytes(server.app.uploads.sizes.encryptedLength(100)) }]);
  const response = await postMultipart(server.client(), `/api/upload/${linkToken}`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function notifyAfterQuiet(): Promise<void> {
  server.clock.advance(QUIET_MS + 1);
  await server.app.notifications.notifyUploads(server.clock.now());
}

describe('a team folder\'s upload notifications', { timeout: 120_000 }, () => {
  it('go to the members who chose them, one message each, and no longer to a removed member', async () => {
    const owner = await member('owner');
    const manager = await member('manager');
    const reader = await member('reader');
    const created = await owner.client.post('/api/folders/', { title: 'Shared inbox', perform_mime_check: false });
    const folder = created.body as { id: number; link_token: string };
    const team = new TeamModel(folder.id);
    const share = team.share(owner, [{ account: manager, role: 'manager' }, { account: reader, role: 'reader' }], []);
    expect((await owner.client.post(`/api/folders/${folder.id}/team`, share.body)).status).toBe(201);
    share.commit();
    expect((await manager.client.put(`/api/folders/${folder.id}/team/me`, { notify: true })).status).toBe(200);

    await uploadTo(folder.link_token, 1);
    await notifyAfterQuiet();
    expect(mailTo(owner)).toHaveLength(1);
    expect(mailTo(manager)).toHaveLength(1);
    expect(mailTo(reader)).toHaveLength(0);
    // Each message names only its own recipient.
    expect(mailTo(manager)[0]).not.toContain(owner.email);

    // The owner opts out, the reader in; then the manager removes the reader (a new epoch).
    expect((await owner.client.put(`/api/folders/${folder.id}/team/me`, { notify: false })).status).toBe(200);
    expect((await reader.client.put(`/api/folders/${folder.id}/team/me`, { notify: true })).status).toBe(200);
    await uploadTo(folder.link_token, 1);
    await notifyAfterQuiet();
    expect(mailTo(owner)).toHaveLength(1);
    expect(mailTo(manager)).toHaveLength(2);
    expect(mailTo(reader)).toHaveLength(1);

    const remove = team.change(manager, { remove: [reader] });
    expect((await manager.client.post(`/api/folders/${folder.id}/team/versions`, remove.body)).status).toBe(201);
    await uploadTo(folder.link_token, 2);
    await notifyAfterQuiet();
    expect(mailTo(manager)).toHaveLength(3);
    expect(mailTo(reader)).toHaveLength(1);
  });
});
