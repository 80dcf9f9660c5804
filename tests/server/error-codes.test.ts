// Every error answer carries a code: {detail, code}, the code in SCREAMING_SNAKE, so the client
// branches on it and never on the text. Walks every typed error the server defines (the tables and
// each HttpError class, found in the source so a new class cannot be missed), the framework's
// refusals by status, and a few live requests through the real app; docs/api.md must list every code.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../contract/errors.ts';
import { HostNotAllowedError, LinkExpiredError, LinkNotFoundError, LinkPasswordRequiredError, LinkWithoutPasswordError } from '../../server/download-links/errors.ts';
import {
  API_ERRORS,
  ApiError,
  defineHttpError,
  HttpError,
  OTHER_CLIENT_ERROR_CODE,
  PROTOCOL_ERROR_CODES,
  RateLimitedError,
  RequestValidationError,
  type ApiErrorCode,
} from '../../server/errors.ts';
import { ExportBlobMissingError, ExportFilesNotFoundError } from '../../server/export/errors.ts';
import { RangeNotSatisfiableError } from '../../server/files/ciphertext-response.ts';
import { FileNotFoundError, UploadNotFoundError } from '../../server/files/errors.ts';
import { DiskFullError, FolderQuotaExceededError, StorageFullError } from '../../server/storage/storage-errors.ts';
import { FolderNotFoundError, FolderRoleRequiredError } from '../../server/folders/errors.ts';
import { FolderKeyChangedError, TeamChangedError, TeamExistsError, TeamManifestInvalidError } from '../../server/folders/team-errors.ts';
import { PASSKEY_ERRORS, PasskeyError, type PasskeyErrorCode } from '../../server/auth/passkeys/errors.ts';
import { SSO_ERRORS, SsoError, type SsoErrorCode } from '../../server/auth/sso/errors.ts';
import { ORG_RECOVERY_ERRORS, OrgRecoveryError, type OrgRecoveryErrorCode } from '../../server/accounts/org-recovery-errors.ts';
import { BenchBodyTooLargeError } from '../../server/routes/bench/discard-route.ts';
import { KeyNotFoundError } from '../../server/routes/keys/errors.ts';
import { FileTooLargeError, UPLOAD_ERRORS, UploadError, type UploadErrorCode } from '../../server/upload/errors.ts';
import { startServer, type TestServer } from './harness.ts';
import { ACCOUNT_ERRORS, AccountError, type AccountErrorCode } from '../../server/accounts/errors.ts';
import { WebhookNeedsPublicUrlError, WebhookNotFoundError, WebhookUrlRefusedError } from '../../server/webhooks/errors.ts';

const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const REPO = path.resolve(import.meta.dirname, '../..');

/** Every typed error an API route can throw, one instance per code. */
const TYPED_ERRORS: Array<HttpError | RequestValidationError> = [
  ...(Object.keys(API_ERRORS) as ApiErrorCode[]).map((code) => new ApiError(code)),
  ...(Object.keys(UPLOAD_ERRORS) as UploadErrorCode[]).map((code) => new UploadError(code)),
  ...(Object.keys(ACCOUNT_ERRORS) as AccountErrorCode[]).map((code) => new AccountError(code)),
  ...(Object.keys(PASSKEY_ERRORS) as PasskeyErrorCode[]).map((code) => new PasskeyError(code)),
  ...(Object.keys(SSO_ERRORS) as SsoErrorCode[]).map((code) => new SsoError(code)),
  ...(Object.keys(ORG_RECOVERY_ERRORS) as OrgRecoveryErrorCode[]).map((code) => new OrgRecoveryError(code)),
  new FileTooLargeError(5 * 1024 * 1024 * 1024),
  new RateLimitedError({ id: 'server.limits.failedLogins', defaultMessage: 'failed login attempts' }, 900),
  new LinkNotFoundError(),
  new LinkExpiredError(),
  new LinkPasswordRequiredError(),
  new LinkWithoutPasswordError(),
  new FolderNotFoundError(),
  new FolderRoleRequiredError('manager'),
  new TeamManifestInvalidError('the signature does not verify'),
  new TeamChangedError(),
  new TeamExistsError(),
  new FolderKeyChangedError(),
  new FileNotFoundError(),
  new UploadNotFoundError(),
  new StorageFullError(),
  new DiskFullError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
  new FolderQuotaExceededError(),
  new RangeNotSatisfiableError(),
  new ExportFilesNotFoundError([12, 13]),
  new ExportBlobMissingError([12]),
  new KeyNotFoundError('PUBLIC_KEY_NOT_FOUND'),
  new KeyNotFoundError('ENCRYPTED_KEY_NOT_FOUND'),
  new BenchBodyTooLargeError(),
  new WebhookNotFoundError(),
  new WebhookNeedsPublicUrlError(),
  new WebhookUrlRefusedError(),
  new HostNotAllowedError('https://files.example.com'),
  new RequestValidationError([{ loc: ['body', 'title'], msg: 'Field required' }]),
];

/** A refusal raised by Fastify or a plugin: a status and its own text, no code of ours. */
function frameworkError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status, code: 'FST_ERR_SOMETHING' });
}

const FRAMEWORK_ERRORS = [
  ...Object.keys(PROTOCOL_ERROR_CODES).map((status) => frameworkError(Number(status), `refused with ${status}`)),
  frameworkError(418, "I'm a teapot"),
  frameworkError(503, 'pool exhausted: connection to db:5432 refused'),
  new Error('database password is hunter2'),
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    setup: (app) => {
      app.get<{ Params: { index: string } }>('/test/typed/:index', async (request) => {
        throw TYPED_ERRORS[Number(request.params.index)];
      });
      app.get<{ Params: { index: string } }>('/test/framework/:index', async (request) => {
        throw FRAMEWORK_ERRORS[Number(request.params.index)];
      });
    },
  });
});
afterAll(() => server.close());

describe('error codes', () => {
  it('covers every HttpError class the server defines', () => {
    const declared = sourceFiles(path.join(REPO, 'server')).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/class (\w+) extends (?:HttpError|defineHttpError|httpErrorTable)\b/g)].map((match) => match[1]!),
    );
    expect(declared.length).toBeGreaterThan(5);
    const covered = new Set(TYPED_ERRORS.map((error) => error.constructor.name));
    for (const name of declared) {
      if (name === 'ApiError' || name === 'UploadError' || name === 'PasskeyError') continue; // walked through their tables
      expect(covered, `${name} has no instance in TYPED_ERRORS`).toContain(name);
    }
  });

  it('answers every typed error as {detail, code} with its own status, code and text', async () => {
    const client = server.client();
    for (const [index, error] of TYPED_ERRORS.entries()) {
      const response = await client.get(`/test/typed/${index}`);
      expect(error.code, error.constructor.name).toMatch(SCREAMING_SNAKE);
      expect(response.status, error.code).toBe(error.statusCode);
      const detail = error instanceof RequestValidationError ? error.issues : error.detail;
      expect(response.body, error.code).toEqual({ detail, code: error.code });
    }
  });

  it('answers a rate limit with RATE_LIMITED and a retry-after header', async () => {
    const index = TYPED_ERRORS.findIndex((error) => error instanceof RateLimitedError);
    const response = await server.client().get(`/test/typed/${index}`);
    expect(response.status).toBe(429);
    expect(response.body).toEqual({ detail: 'Too many failed login attempts. Try again in 15 minutes.', code: 'RATE_LIMITED' });
    expect(response.headers.get('retry-after')).toBe('900');
  });

  it("gives the framework's refusals the code of their status, and hides 5xx as INTERNAL", async () => {
    const client = server.client();
    const answers = [];
    for (const index of FRAMEWORK_ERRORS.keys()) {
      const response = await client.get(`/test/framework/${index}`);
      answers.push({ status: response.status, body: response.body });
    }
    expect(answers).toEqual([
      ...Object.entries(PROTOCOL_ERROR_CODES).map(([status, code]) => ({
        status: Number(status),
        body: { detail: `refused with ${status}`, code },
      })),
      { status: 418, body: { detail: "I'm a teapot", code: OTHER_CLIENT_ERROR_CODE } },
      { status: 500, body: { detail: 'Internal Server Error', code: 'INTERNAL' } },
      { status: 500, body: { detail: 'Internal Server Error', code: 'INTERNAL' } },
    ]);
  });

  it('answers live refusals of the real app with their codes', async () => {
    const client = server.client();
    const token = 'q'.repeat(43);
    expect((await client.get('/api/no/such/route')).body).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    expect((await client.get('/api/auth/users/me')).body).toEqual({ detail: 'Not authenticated', code: 'NOT_AUTHENTICATED' });
    expect((await client.post('/api/auth/logout', undefined, { csrf: false })).body).toEqual({
      detail: 'CSRF validation failed',
      code: 'CSRF_FAILED',
    });
    expect((await client.get(`/api/upload/${token}/status`)).body).toEqual({ detail: 'Link invalid/expired.', code: 'LINK_INVALID' });
    expect((await client.get(`/api/download/${token}/status`)).body).toEqual({
      detail: 'Download link not found.',
      code: 'LINK_NOT_FOUND',
    });

    await client.primeCsrf();
    const missing = await client.request('POST', '/api/auth/token', { form: { username: 'nobody' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: [{ loc: ['body'], msg: 'Send either auth_secret or password' }], code: 'VALIDATION_FAILED' });
    const wrong = await client.login('nobody', 'not the password');
    expect(wrong.body).toEqual({ detail: 'Incorrect username or password', code: 'INCORRECT_CREDENTIALS' });

    const post = (body: string, contentType: string) =>
      fetch(`${server.baseUrl}/api/auth/token/2fa`, {
        method: 'POST',
        headers: { 'content-type': contentType, cookie: `csrftoken=${client.csrfToken}`, 'x-csrftoken': client.csrfToken! },
        body,
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { detail: unknown; code: unknown } }));
    const malformed = await post('{"username":', 'application/json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_REQUEST');
    const tooLarge = await post(JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 1) }), 'application/json');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('PAYLOAD_TOO_LARGE');
    const unsupported = await post('<username>x</username>', 'application/xml');
    expect(unsupported.status).toBe(415);
    expect(unsupported.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it("lists every code of the contract's list in docs/api.md", () => {
    const docs = fs.readFileSync(path.join(REPO, 'docs/api.md'), 'utf8');
    const missing = API_ERROR_CODES.filter((code) => !docs.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it("has the contract's list hold exactly the codes the server answers with", () => {
    const answered = new Set<string>([
      ...TYPED_ERRORS.map((error) => error.code),
      ...Object.values(PROTOCOL_ERROR_CODES),
      OTHER_CLIENT_ERROR_CODE,
      'INTERNAL',
    ]);
    expect([...answered].sort()).toEqual([...API_ERROR_CODES].sort());
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });

  it('keeps the class of a declared error: its name, instanceof and a detail built from the arguments', () => {
    class ProbeError extends defineHttpError('HOST_NOT_ALLOWED', 421, (where: string) => ({ message: { id: 'test.probe', defaultMessage: 'at {where} only' }, values: { where } })) {}
    const error = new ProbeError('https://a.example');
    expect(error).toBeInstanceOf(ProbeError);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProbeError');
    expect({ code: error.code, status: error.statusCode, detail: error.detail, message: error.message }).toEqual({
      code: 'HOST_NOT_ALLOWED',
      status: 421,
      detail: 'at https://a.example only',
      message: 'at https://a.example only',
    });
    expect(new ApiError('NOT_FOUND').name).toBe('ApiError');
  });

  it("refuses at compile time a code that is not in the contract's list", () => {
    // @ts-expect-error NOT_IN_THE_CONTRACT is no code of contract/errors.ts
    expect(new (defineHttpError('NOT_IN_THE_CONTRACT', 400, { id: 'test.x', defaultMessage: 'x' }))().code).toBe('NOT_IN_THE_CONTRACT');
    // @ts-expect-error FILE_NOT_FOUND is a code of the contract but not of ApiError's table
    expect(() => new ApiError('FILE_NOT_FOUND')).toThrow(TypeError);
  });
});
