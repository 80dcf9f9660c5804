// The e2e server writes its mails into DATA_DIR/outbox as .eml files (no SMTP configured); specs
// read the upload page's verification codes and the invitation links from there.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** What `pick` finds in the newest mail to `email` that has it (waits until there is one). */
async function fromNewestMail(dataDir: string, email: string, pick: (mail: string) => string | undefined, what: string, shape: RegExp): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const names = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')).sort().reverse() : [];
        const mail = names.map((name) => fs.readFileSync(path.join(outbox, name), 'utf8')).find((text) => new RegExp(`^To: ${email}$`, 'mi').test(text));
        found = mail === undefined ? undefined : pick(mail);
        return found;
      },
      { message: `${what} to ${email} in ${outbox}` },
    )
    .toMatch(shape);
  return found!;
}

/** The text of the newest mail to `email`, quoted-printable undone and read as UTF-8 (waits until there is one). */
export function mailTextFromOutbox(dataDir: string, email: string): Promise<string> {
  const decoded = (mail: string) =>
    Buffer.from(mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  return fromNewestMail(dataDir, email, decoded, 'a mail', /\S/);
}

/** The 6-digit code of the newest verification mail to `email` (waits until it is there). */
export function codeFromOutbox(dataDir: string, email: string): Promise<string> {
  return fromNewestMail(dataDir, email, (mail) => /^\s+(\d{6})\s*$/m.exec(mail)?.[1], 'a verification mail', /^\d{6}$/);
}

/** The invitation link of the newest mail to `email` (quoted-printable soft breaks undone). */
export function invitationLinkFromOutbox(dataDir: string, email: string): Promise<string> {
  return fromNewestMail(dataDir, email, (mail) => /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/.exec(mail.replace(/=\r?\n/g, ''))?.[0], 'an invitation mail', /\/invite\//);
}
