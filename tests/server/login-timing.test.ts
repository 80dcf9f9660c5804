// Whether a username has an account must not show in how long sign-in takes. A known name with a
// wrong secret and an unknown name take the same path (the same argon2id verify, against a decoy
// hash of the same cost for the unknown name; the same reads and writes before the answer), so the
// two answer times have one distribution. The code step's answer and the pre-login answer, too.
// Measured over real HTTP, interleaved in random order so that drift of a shared machine falls on
// both alike, and compared with a Mann-Whitney U test (rank-based, so the long tail of a busy
// machine does not decide it) plus a floor on the difference of the medians, below which no
// network observer could tell.
//
// The argon2id verify is the same call at the same cost on both paths, and its tens of
// milliseconds of noise on a shared machine would hide a difference of one database write; so it
// is replaced here by a stand-in that answers "no match" at once, and what is measured is
// everything else the route does before it answers.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as PasswordsModule from '../../server/auth/passwords.ts';
import { startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';

vi.mock('../../server/auth/passwords.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof PasswordsModule>()),
  verifyPassword: async () => false,
}));

const TRIES = 1000;

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  // No limiter in the way: every try must reach the password check.
  server = await startServer({
    env: { RATE_LIMIT_ACCOUNT_FAILURES: '1000000', RATE_LIMIT_IP_FAILURES: '1000000', RATE_LIMIT_PRELOGIN_PER_IP: '1000000' },
  });
  await server.createUser('known-user', 'the right password');
  // The code step's known name has 2FA on; no browser has passed its password step.
  const withCode = await server.createUser('known-with-code', 'the right password');
  await server.app.repos.users.setTotp(withCode.id, 'JBSWY3DPEHPK3PXP', true);
  server.app.server.on('request', (_request, response) => {
    const arrived = performance.now();
    response.once('finish', () => answerTimes.push(performance.now() - arrived));
  });
  client = server.client();
  await client.primeCsrf();
});
afterAll(() => server.close());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The Mann-Whitney U statistic as a z score (normal approximation, ties ranked by their mean); positive: `a` tends larger. */
function mannWhitneyZ(a: number[], b: number[]): number {
  const all = [...a.map((value) => ({ value, fromA: true })), ...b.map((value) => ({ value, fromA: false }))].sort((x, y) => x.value - y.value);
  let rankSumA = 0;
  for (let start = 0; start < all.length; ) {
    let end = start;
    while (end + 1 < all.length && all[end + 1]!.value === all[start]!.value) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) if (all[i]!.fromA) rankSumA += rank;
    start = end + 1;
  }
  const [n1, n2] = [a.length, b.length];
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  return (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
}

/** How long the server took for each request, from its arrival to the last byte of the answer handed to the socket. */
const answerTimes: number[] = [];

/**
 * The time of one answer as the server gives it. Measured in the server, not in this client: the
 * two share one process, so work the server does after its answer has gone out would otherwise
 * count against the client reading it, which no client elsewhere would see.
 */
async function timed(send: () => Promise<number>): Promise<number> {
  // Each try starts with the server idle: work a previous answer set off afterwards is not this one's.
  await server.settled();
  const before = answerTimes.length;
  await send();
  await vi.waitFor(() => expect(answerTimes.length).toBe(before + 1));
  return answerTimes[before]!;
}

/** Times `TRIES` answers of each kind, interleaved in random order so that drift falls on both alike. */
async function timeBoth(known: () => Promise<number>, unknown: () => Promise<number>) {
  // A few of each first, so that warm-up (JIT, first decoy hash, statement caches) falls on neither;
  // and the two must answer alike, or their times would not matter.
  for (let i = 0; i < 10; i++) {
    const [knownStatus, unknownStatus] = [await known(), await unknown()];
    expect(knownStatus).toBe(unknownStatus);
  }
  const times = { known: [] as number[], unknown: [] as number[] };
  const order = [...Array<boolean>(TRIES).fill(true), ...Array<boolean>(TRIES).fill(false)].sort(() => Math.random() - 0.5);
  for (const isKnown of order) (isKnown ? times.known : times.unknown).push(await timed(isKnown ? known : unknown));
  return { z: mannWhitneyZ(times.known, times.unknown), medianDifferenceMs: median(times.known) - median(times.unknown) };
}

function showsDifference(result: Awaited<ReturnType<typeof timeBoth>>, floorMs: number): boolean {
  // Both must hold: a real difference (|z| > 3.5) of a size that matters (the floor).
  return Math.abs(result.z) > 3.5 && Math.abs(result.medianDifferenceMs) > floorMs;
}

/**
 * One distribution, or a failure. A difference in the code shows in every measurement; a burst of
 * load from other test files on the same two cores shows in one now and then. So a measurement that
 * shows a difference is taken once more, and the test fails when the second shows it too.
 */
async function expectOneDistribution(measure: () => ReturnType<typeof timeBoth>, floorMs: number) {
  const seen = (result: Awaited<ReturnType<typeof timeBoth>>) =>
    `z=${result.z.toFixed(2)}, median known - median unknown ${result.medianDifferenceMs.toFixed(3)} ms`;
  const first = await measure();
  if (!showsDifference(first, floorMs)) return;
  const second = await measure();
  expect(showsDifference(second, floorMs), `first ${seen(first)}; again ${seen(second)}`).toBe(false);
}

describe('sign-in timing', { timeout: 120_000 }, () => {
  it('a wrong secret for a known name and any secret for an unknown name take the same time', async () => {
    const wrongSecret = randomBytes(32).toString('base64');
    const attempt = (username: string) => async () =>
      (await client.request('POST', '/api/auth/token', { form: { username, auth_secret: wrongSecret } })).status;
    // One unknown name, tried again and again, as an attacker probing a name would.
    await expectOneDistribution(() => timeBoth(attempt('known-user'), attempt('no-such-user')), 0.1);
  });

  it('a wrong code for a known name with 2FA and any code for an unknown name take the same time', async () => {
    const attempt = (username: string) => async () => (await client.post('/api/auth/token/2fa', { username, code: '123456' })).status;
    // A lower floor than the secret step's: the difference this step once had (more read, and one
    // more query, for a name with 2FA) stayed mostly under that floor on a quiet machine.
    await expectOneDistribution(() => timeBoth(attempt('known-with-code'), attempt('no-such-user')), 0.05);
  });

  it('the pre-login answer takes the same time for a known and an unknown name', async () => {
    const prelogin = (username: string) => async () => (await client.post('/api/auth/prelogin', { username })).status;
    await expectOneDistribution(() => timeBoth(prelogin('known-user'), prelogin('no-such-user')), 0.02);
  });
});
