// Upload notifications by e-mail over real HTTP and a real SMTP server: one message per upload
// session once the folder has been quiet (a batch of 200 files gives one), file names only when
// the folder asks for them, the verified uploader address, the daily digest, "off", an admin
// without an address, the SMTP server failing and coming back (retried with backoff, the upload
// unaffected), and exactly one message when two processes run the notifier at once.
import { randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTIFY_LEASE, notifyUploads } from '../../server/notifications/upload-notifier.ts';
import type { Folder } from '../../server/db/repositories/index.ts';
import { startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { startPeerProcess } from './peer-process.ts';
import { codeIn, createFolderOf, MultipartBody, postMultipart, uploadPath } from './upload-helpers.ts';

const QUIET_MS = 300_000;

/** A real SMTP server on loopback that keeps what it accepts, and can refuse everything (451). */
class SmtpInbox {
  readonly messages: string[] = [];
  failing = false;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (this.failing) {
          callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
          return;
        }
        this.messages.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): string[] {
    return this.messages.filter((message) => message.toLowerCase().includes(`to: ${address.toLowerCase()}`));
  }
}

/** The Subject header, unfolded (RFC 5322) and its Q-encoded words decoded (RFC 2047). */
function subjectOf(message: string): string {
  const raw = /^Subject: (.*)$/m.exec(message.replace(/\r\n[ \t]+/g, ' '))?.[1] ?? '';
  return raw
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
      Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))), 'latin1').toString('utf8'),
    );
}

const inbox = new SmtpInbox();
let server: TestServer;

beforeAll(async () => {
  const smtpUrl = await inbox.start();
  server = await startServer({ env: { SMTP_URL: smtpUrl, PUBLIC_URL: 'https://sealdrop.test', NOTIFY_CHECK_SECONDS: '0', NOTIFY_QUIET_SECONDS: String(QUIET_MS / 1000) } });
});
afterAll(async () => {
  await server?.close();
  await inbox.stop();
});

interface Admin {
  email: string | null;
  client: TestClient;
  folder: Folder;
}

let admins = 0;

async function adminWithFolder(options: { email?: string | null; requireEmail?: boolean } = {}): Promise<Admin> {
  const name = `notify${++admins}_${randomBytes(3).toString('hex')}`;
  const email = options.email === undefined ? `${name}@example.com` : options.email;
  const user = await server.createUser(name, 'owner password', email);
  const folder = await createFolderOf(server, user.id, { title: `Client files ${name}`, requireEmail: options.requireEmail ?? false, performMimeCheck: false });
  const client = server.client();
  expect((await client.login(name, 'owner password')).status).toBe(200);
  return { email, client, folder };
}

/** One multipart request of `count` small files (the ciphertext stand-ins are the format's size). */
async function upload(folder: Folder, count: number, options: { prefix?: string; path?: string; extra?: (body: MultipartBody) => void } = {}) {
  const uploader = server.client();
  const body = new MultipartBody();
  options.extra?.(body);
  body.files(
    Array.from({ length: count }, (_, i) => ({
      name: `${options.prefix ?? 'scan'}-${i}.pdf`,
      data: randomBytes(server.app.uploads.sizes.encryptedLength(1000)),
      relativePath: options.path ?? '.',
    })),
  );
  const response = await postMultipart(uploader, uploadPath(folder), body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.successful_files).toHaveLength(count);
  return response;
}

const notify = () => server.app.notifications.notifyUploads(server.clock.now());

describe('each upload session', () => {
  it('sends one message once the folder has been quiet, for a batch of 200 files in four requests', async () => {
    const admin = await adminWithFolder();
    for (let batch = 0; batch < 4; batch++) {
      await upload(admin.folder, 50, { prefix: `batch${batch}` });
      server.clock.advance(10_000);
    }
    server.clock.advance(QUIET_MS - 20_000);
    expect((await notify()).sent).toBe(0);
    expect(inbox.to(admin.email!)).toHaveLength(0);

    server.clock.advance(20_000);
    expect((await notify()).sent).toBe(1);
    const [message] = inbox.to(admin.email!);
    expect(subjectOf(message!)).toBe(`New upload to "${admin.folder.title}": 200 files (200.0 kB)`);
    expect(message).toContain(`/folders/view/${admin.folder.id}`);
    // Names are metadata the admin did not ask to have mailed.
    expect(message).not.toContain('batch0-0.pdf');

    // Told once: later passes send nothing more.
    server.clock.advance(QUIET_MS);
    expect((await notify()).sent).toBe(0);
    expect(inbox.to(admin.email!)).toHaveLength(1);
  });

  it('lists names and paths only when the folder asks for them', async () => {
    const admin = await adminWithFolder();
    const off = await admin.client.get(`/api/folders/${admin.folder.id}/notifications`);
    expect(off.body).toEqual({ mode: 'each', include_file_names: false });
    const saved = await admin.client.request('PUT', `/api/folders/${admin.folder.id}/notifications`, { json: { mode: 'each', include_file_names: true } });
    expect(saved.status).toBe(200);
    await upload(admin.folder, 2, { prefix: 'invoice', path: 'Q3/receipts' });
    server.clock.advance(QUIET_MS + 1);
    await notify();
    const [message] = inbox.to(admin.email!);
    expect(message).toContain('Q3/receipts/invoice-0.pdf (1.00 kB)');
    expect(message).toContain('Q3/receipts/invoice-1.pdf');
  });

  it('names the verified uploader address when the folder verifies e-mail', async () => {
    const admin = await adminWithFolder({ requireEmail: true });
    const uploader = server.client();
    await uploader.primeCsrf();
    expect((await uploader.post(uploadPath(admin.folder, '/request-code'), { uploader_email: 'client@example.org' })).status).toBe(200);
    const codeMail = inbox.to('client@example.org').at(-1)!;
    const code = codeIn(codeMail);
    expect((await uploader.post(uploadPath(admin.folder, '/verify-code'), { uploader_email: 'client@example.org', verification_code: code })).status).toBe(200);
    const body = new MultipartBody().files([{ name: 'passport.pdf', data: randomBytes(server.app.uploads.sizes.encryptedLength(10)) }]);
    expect((await postMultipart(uploader, uploadPath(admin.folder), body)).status).toBe(200);
    server.clock.advance(QUIET_MS + 1);
    await notify();
    expect(inbox.to(admin.email!)[0]).toContain('Uploaded by (verified e-mail address): client@example.org');
  });
});

describe('other settings', () => {
  it('digest: one message when the oldest untold upload is a day old, covering every session since', async () => {
    const admin = await adminWithFolder();
    await admin.client.request('PUT', `/api/folders/${admin.folder.id}/notifications`, { json: { mode: 'digest', include_file_names: false } });
    await upload(admin.folder, 3);
    server.clock.advance(6 * 3_600_000);
    await upload(admin.folder, 2);
    server.clock.advance(QUIET_MS + 1);
    await notify();
    expect(inbox.to(admin.email!)).toHaveLength(0);
    server.clock.advance(18 * 3_600_000);
    await notify();
    const messages = inbox.to(admin.email!);
    expect(messages).toHaveLength(1);
    expect(subjectOf(messages[0]!)).toBe(`Uploads to "${admin.folder.title}": 5 files (5.00 kB)`);
  });

  it('off, and an admin without an address: nothing is sent, and nothing piles up', async () => {
    const quiet = await adminWithFolder();
    await quiet.client.request('PUT', `/api/folders/${quiet.folder.id}/notifications`, { json: { mode: 'off', include_file_names: false } });
    const noAddress = await adminWithFolder({ email: null });
    await upload(quiet.folder, 1);
    await upload(noAddress.folder, 1);
    server.clock.advance(QUIET_MS + 1);
    const report = await notify();
    expect(report.skipped).toBeGreaterThanOrEqual(2);
    expect(inbox.to(quiet.email!)).toHaveLength(0);
    // Turning notifications on later does not send what was uploaded while they were off.
    await quiet.client.request('PUT', `/api/folders/${quiet.folder.id}/notifications`, { json: { mode: 'each', include_file_names: false } });
    server.clock.advance(QUIET_MS + 1);
    await notify();
    expect(inbox.to(quiet.email!)).toHaveLength(0);
  });

  it('refuses a bad setting with 422, and another admin\'s folder with 404', async () => {
    const admin = await adminWithFolder();
    const other = await adminWithFolder();
    for (const body of [{ mode: 'hourly', include_file_names: false }, { mode: 'each' }, { mode: 'each', include_file_names: 'yes' }]) {
      expect((await admin.client.request('PUT', `/api/folders/${admin.folder.id}/notifications`, { json: body })).status).toBe(422);
    }
    expect((await admin.client.get(`/api/folders/${other.folder.id}/notifications`)).status).toBe(404);
    expect((await admin.client.request('PUT', `/api/folders/${other.folder.id}/notifications`, { json: { mode: 'off', include_file_names: false } })).status).toBe(404);
  });
});

describe('when the SMTP server fails', () => {
  it('the upload is unaffected; the message is retried with backoff and sent once it recovers', async () => {
    const admin = await adminWithFolder();
    inbox.failing = true;
    try {
      await upload(admin.folder, 4);
      server.clock.advance(QUIET_MS + 1);
      const failed = await notify();
      expect(failed.failed).toBe(1);
      // Before the first retry delay (1 minute) nothing is tried again.
      server.clock.advance(30_000);
      expect((await notify()).failed).toBe(0);
      server.clock.advance(31_000);
      expect((await notify()).failed).toBe(1);
    } finally {
      inbox.failing = false;
    }
    expect(inbox.to(admin.email!)).toHaveLength(0);
    // The second retry waits 2 minutes.
    server.clock.advance(60_000);
    expect((await notify()).sent).toBe(0);
    server.clock.advance(61_000);
    expect((await notify()).sent).toBe(1);
    expect(inbox.to(admin.email!)).toHaveLength(1);
    expect(inbox.to(admin.email!)[0]).toContain('4 files');
  });
});

describe('when the SMTP server never answers', () => {
  it('the send fails at its deadline, inside the lease: no other process can send the same events meanwhile, and they are retried', async () => {
    const admin = await adminWithFolder();
    await upload(admin.folder, 2);
    server.clock.advance(QUIET_MS + 1);
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let sendsStarted = 0;
    const mailer = {
      send: () => {
        sendsStarted += 1;
        return stalled;
      },
      close: () => undefined,
    };
    const deps = { repos: server.app.repos, mailer, log: server.app.log, quietMs: QUIET_MS, digestMs: 86_400_000, publicUrl: null, holder: 'stalled-holder', sendDeadlineMs: 300 };
    const pass = notifyUploads(deps, server.clock.now());
    await vi.waitFor(() => expect(sendsStarted).toBe(1));
    // While the send hangs, the lease is held: another process's pass does nothing.
    expect(await server.app.repos.taskLeases.take(NOTIFY_LEASE, 'other-process', Date.now(), 60_000)).toBe(false);
    const report = await pass;
    expect(report).toMatchObject({ ran: true, sent: 0, failed: 1 });
    release();
    // Not told: the events wait for their retry, which the app's own notifier then sends.
    expect(inbox.to(admin.email!)).toHaveLength(0);
    server.clock.advance(61_000);
    expect((await notify()).sent).toBeGreaterThanOrEqual(1);
    expect(inbox.to(admin.email!)).toHaveLength(1);
  });
});

describe('several processes', () => {
  it('sends exactly one message per session while two processes run the notifier at once', async () => {
    // A second process on the same database, checking every second with no quiet time; this one
    // runs passes as fast as it can meanwhile.
    const peer = await startPeerProcess(server, { NOTIFY_CHECK_SECONDS: '1', NOTIFY_QUIET_SECONDS: '0' });
    try {
      // The peer works on the real clock and sees an upload as due only once its time has come
      // there: with this server's clock days ahead after the tests above, it saw none and the race
      // never happened. Back to the real clock, so the peer competes from the first upload on.
      server.clock.current = Date.now();
      const folders: Admin[] = [];
      for (let i = 0; i < 6; i++) folders.push(await adminWithFolder());
      await Promise.all(folders.map((admin) => upload(admin.folder, 3)));
      server.clock.advance(QUIET_MS + 1);
      // This process runs passes back to back while the peer's timer runs its own.
      await vi.waitFor(
        async () => {
          await notify();
          for (const admin of folders) expect(inbox.to(admin.email!).length).toBeGreaterThan(0);
        },
        { timeout: 15_000, interval: 0 },
      );
      // The peer's next pass must find nothing. The signal that it has run one: a session in a folder
      // made last (a pass goes through folders by id), which only the peer can tell, as this process
      // has no timer. Its event is stamped with this server's clock, moved back to the peer's (real)
      // one (as above) so that the peer sees it as due; every earlier pass ended before this one began.
      server.clock.current = Date.now();
      const sentinel = await adminWithFolder();
      await upload(sentinel.folder, 1);
      await vi.waitFor(() => expect(inbox.to(sentinel.email!), 'the peer told the last folder').toHaveLength(1), { timeout: 15_000 });
      for (const admin of folders) expect(inbox.to(admin.email!), admin.email!).toHaveLength(1);
    } finally {
      await peer.stop();
    }
  });
});
