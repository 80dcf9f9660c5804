// The e-mails in each language (docs/i18n.md): the words, plurals and number formats of the
// recipient's language, the English ones exactly as before; user data (titles, names) untouched.
import { describe, expect, it } from 'vitest';
import { invitationMessage } from '../../server/accounts/invitation-message.ts';
import { uploadMessage, type UploadMessageInput } from '../../server/notifications/upload-message.ts';
import { verificationCodeMail } from '../../server/upload/code-mail.ts';

const event = (fileCount: number, totalBytes: number, uploaderEmail: string | null = null) => ({ id: 1, folderId: 7, createdAt: 0, fileIds: [1], fileCount, totalBytes, uploaderEmail, attempts: 0 });

function message(language: 'en' | 'de', overrides: Partial<UploadMessageInput> = {}) {
  return uploadMessage({
    to: 'chef@example.com',
    folder: { id: 7, title: 'Steuerunterlagen 2026' },
    events: [event(1, 1_500_000, 'mandant@example.com')],
    files: [{ id: 1, fileHash: 'x', originalFilename: 'Bescheid.pdf', relativePath: 'Belege', fileSize: 1_500_000 }],
    origin: 'https://drop.example',
    kind: 'each',
    language,
    ...overrides,
  });
}

describe('the upload notification', () => {
  it('reads in English as it always did', () => {
    const mail = message('en');
    expect(mail.subject).toBe('New upload to "Steuerunterlagen 2026": 1 file (1.50 MB)');
    expect(mail.text).toContain('1 file (1.50 MB) were uploaded to your folder "Steuerunterlagen 2026".');
    expect(mail.text).toContain('  Belege/Bescheid.pdf (1.50 MB)');
    expect(mail.text).toContain('Open the folder: https://drop.example/folders/view/7');
  });

  it('reads in German with German plurals and decimal commas', () => {
    const one = message('de');
    expect(one.subject).toBe('Neuer Upload in „Steuerunterlagen 2026“: 1 Datei (1,50 MB)');
    expect(one.text).toContain('In Ihren Ordner „Steuerunterlagen 2026“ wurden 1 Datei (1,50 MB) hochgeladen.');
    expect(one.text).toContain('Hochgeladen von (bestätigte E-Mail-Adresse): mandant@example.com');
    expect(one.text).toContain('  Belege/Bescheid.pdf (1,50 MB)');
    expect(one.text).not.toMatch(/uploaded|your folder|Files:/);
    const many = message('de', { events: [event(12, 2_500_000_000)], kind: 'digest', files: null });
    expect(many.subject).toBe('Uploads in „Steuerunterlagen 2026“: 12 Dateien (2,50 GB)');
  });
});

describe('the verification code and the invitation', () => {
  it('are written in the language asked for, the code and the link unchanged', () => {
    const code = verificationCodeMail('mandant@example.com', 'Belege', '123456', 'de');
    expect(code.subject).toBe('Ihr Upload-Code für „Belege“');
    expect(code.text).toContain('    123456');
    expect(verificationCodeMail('a@example.com', 'Belege', '123456', 'en').subject).toBe('Your upload code for "Belege"');

    const expiresAt = Date.UTC(2026, 11, 2, 9, 30);
    const german = invitationMessage({ to: 'k@example.com', inviter: 'Frau Chef', displayName: null, url: 'https://drop.example/invite/t', expiresAt, language: 'de' });
    expect(german.subject).toBe('Einladung zu Sealdrop');
    expect(german.text).toContain('Frau Chef lädt Sie zu einem Konto bei Sealdrop ein');
    expect(german.text).toContain('Der Link funktioniert einmal, bis Mittwoch, 2. Dezember 2026 um 09:30:00 UTC.');
    const english = invitationMessage({ to: 'k@example.com', inviter: 'Boss', displayName: 'Kim', url: 'u', expiresAt, language: 'en' });
    expect(english.text).toContain('Hello Kim,');
    expect(english.text).toContain('The link works once, until Wed, 02 Dec 2026 09:30:00 GMT.');
  });
});
