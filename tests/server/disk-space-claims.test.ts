// The free-space reserve's leases as claims in the database (storage/free-space.ts,
// repositories/disk-space-claims.ts), with two guards standing for two processes on one data
// directory and database, and a clock the test moves: one process sees what the other's writers
// were granted (whole grants, not only what they wrote); a claim left by a process that died stops counting after CLAIM_TTL_MS; a writer
// renews its claim while it writes; a release that failed is retried before the room is counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_RENEW_MS, CLAIM_TTL_MS, diskSpaceGuard, type SpaceClaims } from '../../server/storage/free-space.ts';
import { startServer, type TestServer } from './harness.ts';

const MiB = 1024 * 1024;
let server: TestServer;
let now = Date.now();
const clock = () => now;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A guard with no reserve on the test's data directory, over `claims` (the server's repository by default). */
function guard(claims: SpaceClaims = server.app.repos.diskSpaceClaims) {
  return diskSpaceGuard(server.config.dataDir, 0, { claims, clock });
}

describe('disk space claims shared through the database', () => {
  it("counts another process's grants until they are written or released, and a dead process's no longer than CLAIM_TTL_MS", async () => {
    // (Free space on the shared temporary directory moves with other programs: the claims are compared, not the room.)
    const lease = guard().lease();
    await lease.take(MiB);
    // The whole grant counts, not only the piece taken so far.
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(8 * MiB);
    const other = guard().lease();
    await other.take(MiB);
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(16 * MiB);
    await other.release();
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(8 * MiB);

    // The process dies without releasing: its claim counts until it lapses, then no longer.
    now += CLAIM_TTL_MS - 1;
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(8 * MiB);
    now += 2;
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(0);
  });

  it('a writer renews its claim while it writes: three minutes of writing within one grant keep it counted', async () => {
    const lease = guard().lease();
    await lease.take(MiB);
    for (let step = 0; step < 6; step++) {
      now += CLAIM_RENEW_MS;
      await lease.take(64 * 1024);
    }
    // Three minutes of writing: the claim still counts.
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBeGreaterThan(0);
    await lease.release();
    expect(await server.app.repos.diskSpaceClaims.claimed(now)).toBe(0);
  });

  it('a release that failed (the database full at that moment) is retried before the room is next counted', async () => {
    const real = server.app.repos.diskSpaceClaims;
    let failReleases = true;
    const flaky: SpaceClaims = {
      claimed: (at) => real.claimed(at),
      claim: (id, at, expiresAt, decide) => real.claim(id, at, expiresAt, decide),
      release: (id) => (failReleases ? Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })) : real.release(id)),
    };
    const space = guard(flaky);
    const lease = space.lease();
    await lease.take(MiB);
    await lease.release();
    expect(await real.claimed(now)).toBeGreaterThan(0);
    failReleases = false;
    await space.room();
    expect(await real.claimed(now)).toBe(0);
  });
});
