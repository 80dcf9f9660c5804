// The log scrubber on its own: which values are redacted by name, which strings are recognised as
// link tokens (in every spelling) or as tokens by shape, and that a real pino logger configured
// like the server's writes no secret from any logger path.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { newToken, sha256Hex } from './auth/tokens.ts';
import { loggerOptions } from './logging.ts';
import { REDACTED, scrubLogLine, scrubText, scrubValue, tokenId } from './log-scrub.ts';

const token = newToken();
const id = tokenId(token);

describe('tokenId', () => {
  it('is "tok:" and the first 8 hex digits of the SHA-256, the same for the same token', () => {
    expect(id).toBe(`tok:${sha256Hex(token).slice(0, 8)}`);
    expect(tokenId(token)).toBe(id);
    expect(tokenId(newToken())).not.toBe(id);
  });
});

describe('scrubText: link tokens in paths', () => {
  const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`;
  it.each([
    [`/api/upload/${token}/status`, `/api/upload/${id}/status`],
    [`/api/upload/${token}`, `/api/upload/${id}`],
    [`/api/download/${token}/file/7?x=1`, `/api/download/${id}/file/7?x=1`],
    [`/upload/${token}`, `/upload/${id}`],
    [`/download/${token}#keys`, `/download/${id}#keys`],
    [`/%61pi/upload/${token}/status`, `/%61pi/upload/${id}/status`],
    [`/api/%75pload/${token}/tus`, `/api/%75pload/${id}/tus`],
    [`/api/UPLOAD/${token}`, `/api/UPLOAD/${id}`],
    [`/api//upload//${token}/status`, `/api//upload//${id}/status`],
    [`/api%2Fupload%2f${token}%2Fstatus`, `/api%2Fupload%2f${id}%2Fstatus`],
    [`\\api\\download\\${token}`, `\\api\\download\\${id}`],
    [`/api/upload/${hex(token[0]!)}${token.slice(1)}/status`, `/api/upload/${id}/status`],
    [`Route GET:/api/upload/${token}/nope not found`, `Route GET:/api/upload/${id}/nope not found`],
    [`http://localhost:8080/download/${token}`, `http://localhost:8080/download/${id}`],
  ])('%s', (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });

  it('hashes whatever stands where a token goes, whatever its length', () => {
    expect(scrubText('/api/download/short/status')).toBe(`/api/download/${tokenId('short')}/status`);
  });

  it('leaves other paths and words alone', () => {
    for (const text of [
      '/api/download/links/folder/3',
      '/api/folders/12/files',
      '/srv/data/blobs/uploads/0123456789abcdef0123456789abcdef',
      'upload verification code sent',
      'multipart upload recorded',
      '/api/upload',
    ]) {
      expect(scrubText(text)).toBe(text);
    }
  });
});

describe('scrubValue: S3 client errors', () => {
  it('redacts the keys, signature and string-to-sign an S3 error carries', () => {
    const error = {
      name: 'SignatureDoesNotMatch',
      Code: 'SignatureDoesNotMatch',
      AWSAccessKeyId: 'AKIDEXAMPLE',
      StringToSign: 'AWS4-HMAC-SHA256\n20261122T000000Z',
      SignatureProvided: 'f0e1d2c3b4a5',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI' },
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
    };
    const scrubbed = JSON.stringify(scrubValue(error));
    for (const secret of ['AKIDEXAMPLE', '20261122T000000Z', 'f0e1d2c3b4a5', 'wJalrXUtnFEMI']) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('SignatureDoesNotMatch');
  });
});

describe('scrubText: tokens by shape, credentials in URLs', () => {
  it('replaces every 43-character base64url run by its id', () => {
    const other = newToken();
    expect(scrubText(`sealdrop_session=${token}; csrftoken=${other}`)).toBe(
      `sealdrop_session=${id}; csrftoken=${tokenId(other)}`,
    );
  });

  it('keeps hex digests, UUIDs and shorter or longer runs', () => {
    const digest = sha256Hex('x');
    const uuid = '3b241101-e2bb-4255-8caf-4136c566a962';
    const long = randomBytes(48).toString('base64url');
    expect(scrubText(`${digest} ${uuid} ${long}`)).toBe(`${digest} ${uuid} ${long}`);
  });

  it('cuts user and password out of URLs', () => {
    expect(scrubText('connect smtp://mailer:s3cret@mail.example.com:587 failed')).toBe(
      `connect smtp://${REDACTED}@mail.example.com:587 failed`,
    );
    expect(scrubText('postgres://sealdrop:pw@db:5432/sealdrop')).toBe(`postgres://${REDACTED}@db:5432/sealdrop`);
  });
});

describe('scrubValue', () => {
  it('redacts secret-named values at any depth, in any spelling of the name', () => {
    const scrubbed = scrubValue({
      busboyOptions: { headers: { cookie: 'a=b', 'x-csrftoken': 'c', Authorization: 'Bearer d', host: 'h' } },
      res: { headers: { 'set-cookie': ['e=f', 'g=h'] }, statusCode: 200 },
      body: {
        password: 'p1',
        link_password: 'p2',
        new_password: 'p3',
        verification_code: '123456',
        code: '654321',
        totpCode: 987654,
        otp: '111111',
        totp_secret: 'JBSWY3DPEHPK3PXP',
        csrfToken: 'i',
        token: 'j',
      },
      list: [{ Cookie: 'k' }],
    });
    expect(scrubbed).toEqual({
      busboyOptions: { headers: { cookie: REDACTED, 'x-csrftoken': REDACTED, Authorization: REDACTED, host: 'h' } },
      res: { headers: { 'set-cookie': REDACTED }, statusCode: 200 },
      body: {
        password: REDACTED,
        link_password: REDACTED,
        new_password: REDACTED,
        verification_code: REDACTED,
        code: REDACTED,
        totpCode: REDACTED,
        otp: REDACTED,
        totp_secret: REDACTED,
        csrfToken: REDACTED,
        token: REDACTED,
      },
      list: [{ Cookie: REDACTED }],
    });
  });

  it("keeps error codes, status codes and everything else, and scrubs the strings", () => {
    const value = {
      err: { type: 'Error', code: 'ENOENT', message: `no file for /api/upload/${token}`, statusCode: 404 },
      folderId: 3,
      ok: true,
      nothing: null,
    };
    expect(scrubValue(value)).toEqual({
      err: { type: 'Error', code: 'ENOENT', message: `no file for /api/upload/${id}`, statusCode: 404 },
      folderId: 3,
      ok: true,
      nothing: null,
    });
  });
});

describe('scrubLogLine', () => {
  it('keeps the line a JSON line ending in a newline', () => {
    const line = `${JSON.stringify({ level: 30, msg: `GET /api/download/${token}/status`, headers: { cookie: 'x' } })}\n`;
    const out = scrubLogLine(line);
    expect(out.endsWith('\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({ level: 30, msg: `GET /api/download/${id}/status`, headers: { cookie: REDACTED } });
  });

  it('scrubs a line that is not JSON as text', () => {
    expect(scrubLogLine(`plain ${token}\n`)).toBe(`plain ${id}\n`);
  });
});

describe('the server logger (loggerOptions)', () => {
  it('writes no secret from any logger, child logger or level', () => {
    const lines: string[] = [];
    const options = loggerOptions('trace', { write: (line: string) => lines.push(line) }) as pino.LoggerOptions & {
      stream: pino.DestinationStream;
    };
    const logger = pino(options, options.stream);
    const child = logger.child({ reqId: 'req-1' });
    const session = newToken();
    child.trace({ busboyOptions: { headers: { cookie: `sealdrop_session=${session}`, 'x-csrftoken': 'abc' } } }, 'options');
    child.info({ req: { method: 'GET', url: `/api/upload/${token}/status` } }, 'incoming request');
    child.info(`Route GET:/api/download/${token}/x not found`);
    child.error({ err: new Error(`link ${token} failed`) }, 'request failed');
    logger.debug({ body: { password: 'hunter22', code: '123456' } }, 'debug');
    const all = lines.join('');
    expect(lines).toHaveLength(5);
    for (const secret of [token, session, 'abc', 'hunter22', '123456']) expect(all).not.toContain(secret);
    expect(all).toContain(id);
    expect(JSON.parse(lines[1]!).req.url).toBe(`/api/upload/${id}/status`);
  });
});
