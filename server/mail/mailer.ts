import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL; unset means the outbox directory. */
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
  /** Told where a message went; never given the message body (it may hold a code). */
  log: (message: string) => void;
}

/**
 * Sends mail through nodemailer. Without SMTP_URL every message is written as an .eml file into
 * the outbox directory instead, so the embedded default works with no mail server and an operator
 * (or a test) can read the message there.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    // Timeouts below nodemailer's defaults (2 and 10 minutes), so a stalled SMTP server frees the
    // connection well within the notifier's send deadline; a `?socketTimeout=` in SMTP_URL still wins.
    const transport = nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const transport: Transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      const partial = join(options.outboxDir, `.${name}.partial`);
      // Written beside its final name and renamed, so a reader never sees half a message.
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, join(options.outboxDir, name));
      options.log(`No SMTP_URL configured: mail to ${mail.to} written to ${join(options.outboxDir, name)}`);
    },
    close: () => transport.close(),
  };
}
