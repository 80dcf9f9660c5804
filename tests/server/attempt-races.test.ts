// Every limit on guesses holds against parallel requests spread over two server processes that
// share one database (SQLite file, or PostgreSQL under `npm run test:pg`). Each limited check is
// hit by a burst of wrong guesses sent all at once, half to each process: exactly the configured
// number is evaluated (401), the rest are refused (429), and the right secret is then refused on
// both processes while the limit holds. A second burst mixes the right secret in, as an attacker
// racing the rightful owner would, and checks the bounds that still hold.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, signedInClient, type TestServer } from './harness.ts';
import { TestClient, type TestResponse } from './http-client.ts';
import { createFolder, seedFile } from './files-fixtures.ts';
import { startPeerProcess, type PeerProcess } from './peer-process.ts';
import { totpAt } from './totp-reference.ts';
import { createUploadFolder, MailCatcher, uploadPath } from './upload-helpers.ts';

const ACCOUNT_LIMIT = 4;
const IP_LIMIT = 12;
const WRONG_GUESSES = 24;
const PASSWORD = 'correct horse battery';

let server: TestServer;
let peer: PeerProcess;
const mail = new MailCatcher();

beforeAll(async () => {
  const smtpUrl = await mail.start();
  server = await startServer({
    env: {
      RATE_LIMIT_ACCOUNT_FAILURES: String(ACCOUNT_LIMIT),
      RATE_LIMIT_IP_FAILURES: String(IP_LIMIT),
      RATE_LIMIT_WINDOW_MINUTES: '15',
      // Each test guesses from its own address (x-forwarded-for), so address counts do not mix.
      TRUST_PROXY: 'true',
      SMTP_URL: smtpUrl,
    },
    ownPublicUrl: true,
  });
  peer = await startPeerProcess(server);
}, 60_000);

afterAll(async () => {
  await peer?.stop();
  await server?.close();
  await mail.stop();
});

let addressCount = 0;
const freshAddress = () => `198.51.100.${++addressCount}`;
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** One guess: the request it makes, to the process whose base URL it is given. */
type Guess = (baseUrl: string, secret: string) => Promise<TestResponse>;

interface LimitedCheck {
  guess: Guess;
  right: string;
  /** Distinct wrong secrets of the right shape. */
  wrong(index: number): string;
  /** A right guess forgets the count (so the owner, racing the attacker, starts it over). */
  clearsOnSuccess: boolean;
  /** What an evaluated wrong guess answers (401, or 400 for an e-mail code). */
  wrongStatus?: number;
}

/** A copy of the client's cookies aimed at another process (CSRF and sessions live in the database). */
function aimedAt(client: TestClient, baseUrl: string): TestClient {
  const copy = new TestClient(baseUrl);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

const processes = () => [server.baseUrl, peer.baseUrl];

/** Sends every secret at once, alternating between the two processes. */
async function burst(check: LimitedCheck, secrets: string[]): Promise<TestResponse[]> {
  const urls = processes();
  const responses = await Promise.all(secrets.map((secret, i) => check.guess(urls[i % urls.length]!, secret)));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((status) => status >= 500), `statuses ${statuses.join(',')}`).toEqual([]);
  return responses;
}

function wrongSecrets(check: LimitedCheck, count = WRONG_GUESSES): string[] {
  return Array.from({ length: count }, (_, i) => check.wrong(i));
}

async function limitHoldsAgainstABurst(check: LimitedCheck): Promise<void> {
  const responses = await burst(check, wrongSecrets(check));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((status) => status !== 429)).toEqual(Array(ACCOUNT_LIMIT).fill(check.wrongStatus ?? 401));
  const refused = responses.find((r) => r.status === 429)!;
  // 15 minutes, or 16 where the window was opened by the other process a moment later on its clock.
  expect(refused.body.detail).toMatch(/^Too many .+\. Try again in 1[56] minutes\.$/);
  expect(refused.body.code).toBe('RATE_LIMITED');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);

  for (const baseUrl of processes()) {
    const rightWhileBlocked = await check.guess(baseUrl, check.right);
    expect(rightWhileBlocked.status, `right secret on ${baseUrl}`).toBe(429);
  }
}

async function boundsHoldWithTheRightSecretInTheBurst(check: LimitedCheck): Promise<void> {
  const secrets = wrongSecrets(check);
  const rightAt = Math.floor(secrets.length / 3);
  secrets.splice(rightAt, 0, check.right);
  const responses = await burst(check, secrets);
  const right = responses[rightAt]!;
  const wrongEvaluated = responses.filter((r, i) => i !== rightAt && r.status !== 429);
  expect(wrongEvaluated.map((r) => r.status)).toEqual(wrongEvaluated.map(() => check.wrongStatus ?? 401));
  expect([200, 429]).toContain(right.status);
  if (right.status === 429 || !check.clearsOnSuccess) {
    // Nothing started the count over: the right guess, when evaluated, took one of the places.
    expect(wrongEvaluated.length + (right.status === 200 ? 1 : 0)).toBeLessThanOrEqual(ACCOUNT_LIMIT);
  } else {
    // The owner's success forgets the count once: at most one window's worth before and after it.
    expect(wrongEvaluated.length).toBeLessThanOrEqual(2 * ACCOUNT_LIMIT - 1);
  }
}

function randomWrongPassword(index: number): string {
  return `wrong-${index}-${randomBytes(3).toString('hex')}`;
}

/** A wrong authentication secret of the right shape (32 bytes of base64). */
function randomWrongSecret(): string {
  return randomBytes(32).toString('base64');
}

function withAddress(address: string) {
  return { 'x-forwarded-for': address };
}

async function loginCheck(): Promise<LimitedCheck> {
  const username = unique('racer');
  await server.createUser(username, PASSWORD);
  const client = server.client();
  const right = await client.authSecret(username, PASSWORD);
  const headers = withAddress(freshAddress());
  return {
    guess: (baseUrl, authSecret) =>
      aimedAt(client, baseUrl).request('POST', '/api/auth/token', { form: { username, auth_secret: authSecret }, headers }),
    right,
    wrong: randomWrongSecret,
    clearsOnSuccess: true,
  };
}

async function totpCheck(): Promise<LimitedCheck> {
  const username = unique('totp');
  const user = await server.createUser(username, PASSWORD);
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  await server.app.repos.users.setTotp(user.id, secret, true);
  // The peer process runs on the real clock; keep the test server's on it too.
  server.clock.current = Date.now();
  const headers = withAddress(freshAddress());
  const client = server.client();
  const authSecret = await client.authSecret(username, PASSWORD);
  const passwordStep = await client.request('POST', '/api/auth/token', { form: { username, auth_secret: authSecret }, headers });
  expect(passwordStep.body).toEqual({ message: 'OTP code required', username });
  const near = new Set([-1, 0, 1].map((offset) => totpAt(secret, Date.now(), offset)));
  return {
    guess: (baseUrl, code) => aimedAt(client, baseUrl).post('/api/auth/token/2fa', { username, code }, { headers }),
    right: totpAt(secret, Date.now()),
    wrong(index) {
      for (let candidate = index; ; candidate += 1_000) {
        const code = String(candidate * 7919 % 1_000_000).padStart(6, '0');
        if (!near.has(code)) return code;
      }
    },
    clearsOnSuccess: true,
  };
}

async function reenteredPasswordCheck(): Promise<LimitedCheck> {
  const username = unique('reenter');
  const { client } = await signedInClient(server, username, PASSWORD);
  const headers = withAddress(freshAddress());
  return {
    guess: (baseUrl, authSecret) => aimedAt(client, baseUrl).post('/api/auth/verify-password', { auth_secret: authSecret }, { headers }),
    right: await client.authSecret(username, PASSWORD),
    wrong: randomWrongSecret,
    clearsOnSuccess: false,
  };
}

async function uploadLinkPasswordCheck(): Promise<LimitedCheck> {
  const folder = await createUploadFolder(server, { linkPassword: PASSWORD });
  const client = server.client();
  await client.primeCsrf();
  const headers = withAddress(freshAddress());
  return {
    guess: (baseUrl, password) =>
      aimedAt(client, baseUrl).post(uploadPath(folder, '/verify-password'), { link_password: password }, { headers }),
    right: PASSWORD,
    wrong: randomWrongPassword,
    clearsOnSuccess: true,
  };
}

async function emailCodeCheck(): Promise<LimitedCheck> {
  const folder = await createUploadFolder(server, { requireEmail: true });
  const email = `${unique('uploader')}@example.com`;
  const client = server.client();
  await client.primeCsrf();
  const headers = withAddress(freshAddress());
  const requested = await client.post(uploadPath(folder, '/request-code'), { uploader_email: email }, { headers });
  expect(requested.status).toBe(200);
  const code = mail.lastCodeFor(email);
  return {
    guess: (baseUrl, guess) =>
      aimedAt(client, baseUrl).post(
        uploadPath(folder, '/verify-code'),
        { uploader_email: email, verification_code: guess },
        { headers },
      ),
    right: code,
    wrong: (index) => String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    clearsOnSuccess: true,
    wrongStatus: 400,
  };
}

async function downloadLinkPasswordCheck(): Promise<LimitedCheck> {
  const { client: admin } = await signedInClient(server, unique('sharer'), PASSWORD);
  const folder = await createFolder(admin, unique('Shared'));
  const file = await seedFile(server, folder.id);
  const wrappedKey = `${randomBytes(48).toString('base64')}:${randomBytes(60).toString('base64')}`;
  const created = await admin.post('/api/download/links', {
    file_ids: [file.id],
    password: PASSWORD,
    reencrypted_keys_json: JSON.stringify({ [file.id]: wrappedKey }),
    expiration_date: null,
  });
  expect(created.status).toBe(201);
  const recipient = server.client();
  await recipient.primeCsrf();
  const headers = withAddress(freshAddress());
  return {
    guess: (baseUrl, password) =>
      aimedAt(recipient, baseUrl).post(`/api/download/${created.body.link_token}/verify-password`, { password }, { headers }),
    right: PASSWORD,
    wrong: randomWrongPassword,
    clearsOnSuccess: true,
  };
}

const checks: Array<[string, () => Promise<LimitedCheck>]> = [
  ['login password', loginCheck],
  ['login authentication code', totpCheck],
  ['re-entered password', reenteredPasswordCheck],
  ['upload link password', uploadLinkPasswordCheck],
  ['upload e-mail code', emailCodeCheck],
  ['download link password', downloadLinkPasswordCheck],
];

describe.each(checks)('%s', (_name, prepare) => {
  it(`evaluates exactly ${ACCOUNT_LIMIT} of ${WRONG_GUESSES} parallel wrong guesses over two processes, then refuses the right one`, async () => {
    await limitHoldsAgainstABurst(await prepare());
  });

  it('keeps its bound when the right secret races the wrong ones', async () => {
    await boundsHoldWithTheRightSecretInTheBurst(await prepare());
  });
});

describe('the per-address limit', () => {
  it(`evaluates exactly ${IP_LIMIT} parallel wrong logins from one address across many accounts`, async () => {
    const headers = withAddress(freshAddress());
    const client = server.client();
    await client.primeCsrf();
    const urls = processes();
    const responses = await Promise.all(
      Array.from({ length: 3 * IP_LIMIT }, (_, i) =>
        aimedAt(client, urls[i % 2]!).request('POST', '/api/auth/token', {
          form: { username: unique('nobody'), auth_secret: randomWrongSecret() },
          headers,
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(IP_LIMIT);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });
});

describe('an e-mail code', () => {
  it('has at most 5 tries, however many are taken at once', async () => {
    const folder = await createUploadFolder(server, { requireEmail: true });
    const codes = server.app.repos.verificationCodes;
    const email = `${unique('tries')}@example.com`;
    await codes.replacePending({
      folderId: folder.id,
      email,
      codeHash: 'not-compared-here',
      salt: 'salt',
      expiresAt: server.clock.now() + 600_000,
      now: server.clock.now(),
    });
    const tries = await Promise.all(
      Array.from({ length: 20 }, () => codes.reserveAttempt(folder.id, email, server.clock.now(), 5)),
    );
    expect(tries.filter((row) => row !== undefined).map((row) => row!.attempts).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
