// The commands send link passwords, their verifiers, e-mail codes and the ciphertext they decrypt
// to the link's origin: over plain http:// to another machine anyone on the way reads and changes
// them. A plain http:// link is taken only to loopback (localhost, 127.0.0.0/8, [::1]) or with
// --insecure-http; otherwise the command stops with INSECURE_HTTP (exit status 2) before sending
// anything. The command test reaches the test server at an IPv4-mapped spelling of 127.0.0.1,
// which the check counts as another machine (it never resolves or reinterprets a host), so that
// its traffic stays on loopback while being refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InsecureHttpError } from '../../cli/shared/errors.ts';
import { parseDownloadLink, parseUploadLink } from '../../cli/shared/link-url.ts';
import { adminWithKeys, commandTestBed, createFolder, runCommand } from './cli-fixtures.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrSt';

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('links over plain http', () => {
  it.each([
    `http://files.example.com/upload/${TOKEN}`,
    `http://192.168.1.20:8000/upload/${TOKEN}`,
    `http://[::ffff:127.0.0.1]:8000/upload/${TOKEN}`,
    `http://localhost.example.com/upload/${TOKEN}`,
  ])('refuses %s with INSECURE_HTTP', (link) => {
    const error = refusal(() => parseUploadLink(link));
    expect(error).toBeInstanceOf(InsecureHttpError);
    expect((error as InsecureHttpError).code).toBe('INSECURE_HTTP');
    expect(refusal(() => parseDownloadLink(link.replace('/upload/', '/download/') + '#keys'))).toBeInstanceOf(InsecureHttpError);
  });

  it.each([`http://localhost:8000/upload/${TOKEN}`, `http://127.0.0.1:8000/upload/${TOKEN}`, `http://127.8.9.10/upload/${TOKEN}`, `http://[::1]:8000/upload/${TOKEN}`])(
    'takes the loopback address %s',
    (link) => {
      expect(parseUploadLink(link).token).toBe(TOKEN);
    },
  );

  it('takes https anywhere, and plain http to another machine with --insecure-http', () => {
    expect(parseDownloadLink(`https://files.example.com/download/${TOKEN}#k`).origin).toBe('https://files.example.com');
    expect(parseUploadLink(`http://files.example.com/upload/${TOKEN}`, { insecureHttp: true }).origin).toBe('http://files.example.com');
  });
});

describe('npm run upload over plain http', { timeout: 120_000 }, () => {
  const bed = commandTestBed();

  it('stops with INSECURE_HTTP and exit status 2 before sending anything; --insecure-http uploads', async () => {
    const server = await bed.startServer();
    const admin = await adminWithKeys(server);
    const folder = await createFolder(admin);
    const dir = bed.tempDir('sealdrop-insecure-');
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'over plain http');
    const port = new URL(server.baseUrl).port;
    const link = `http://[::ffff:127.0.0.1]:${port}/upload/${folder.link_token}`;
    let requests = 0;
    server.app.server.on('request', () => (requests += 1));

    const refused = await runCommand('upload', [link, file]).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('plain http:// address of another machine');
    expect(refused.stderr).toContain('[INSECURE_HTTP]');
    expect(requests).toBe(0);

    const allowed = await runCommand('upload', ['--insecure-http', link, file]).done;
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(requests).toBeGreaterThan(0);
  });
});
