// Outgoing mail as `app.mailer`: SMTP through nodemailer when SMTP_URL is set, otherwise each
// message is written as an .eml file under DATA_DIR/outbox (and a log line says where), so the
// embedded default works without a mail server. The log line names the recipient, never the body
// (a verification code is a secret).
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { globalPlugin } from './global-plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export const mailPlugin = globalPlugin('mail', async (app) => {
  const { smtpUrl, from, outboxDir } = app.config.mail;
  const mailer = createMailer({
    smtpUrl: smtpUrl ?? undefined,
    from,
    outboxDir,
    log: (message) => app.log.info(message),
  });
  app.log.info(smtpUrl ? 'mail: delivering through SMTP_URL' : `mail: no SMTP_URL, writing messages to ${outboxDir}`);
  app.decorate('mailer', {
    send: (mail) =>
      mailer.send(mail).then(
        () => app.metrics.mailSent('sent'),
        (error: unknown) => {
          app.metrics.mailSent('failed');
          throw error;
        },
      ),
    close: () => mailer.close(),
  });
  app.addHook('onClose', async () => {
    app.mailer.close();
  });
});
