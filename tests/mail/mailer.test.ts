import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer.ts';

describe('mailer', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('writes each message as an .eml file into the outbox when no SMTP server is configured', async () => {
    const outboxDir = await mkdtemp(join(tmpdir(), 'outbox-'));
    cleanups.push(() => rm(outboxDir, { recursive: true, force: true }));
    const logged: string[] = [];
    const mailer = createMailer({ from: 'Sealdrop <noreply@localhost>', outboxDir, log: (m) => logged.push(m) });
    await mailer.send({ to: 'up@example.com', subject: 'Your code', text: 'Code: 123456' });
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = await readFile(join(outboxDir, files[0]!), 'utf8');
    expect(raw).toContain('To: up@example.com');
    expect(raw).toContain('Code: 123456');
    expect(logged.join('\n')).toContain('up@example.com');
    expect(logged.join('\n')).not.toContain('123456');
  });

  it('delivers through a real SMTP server when SMTP_URL is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.server.address() as { port: number };
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'noreply@localhost',
      outboxDir: '/nonexistent',
      log: () => {},
    });
    cleanups.push(() => mailer.close());
    await mailer.send({ to: 'up@example.com', subject: 'Your code', text: 'Code: 654321' });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('Code: 654321');
  });
});
