// The e2e server writes its mails into DATA_DIR/outbox as .eml files (no SMTP configured); specs
// read the upload page's verification codes from there.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The 6-digit code of the newest verification mail to `email` (waits until it is there). */
export async function codeFromOutbox(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const names = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')).sort().reverse() : [];
        const mail = names.map((name) => fs.readFileSync(path.join(outbox, name), 'utf8')).find((text) => new RegExp(`^To: ${email}$`, 'mi').test(text));
        code = mail === undefined ? undefined : /^\s+(\d{6})\s*$/m.exec(mail)?.[1];
        return code;
      },
      { message: `a verification mail to ${email} in ${outbox}` },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}
