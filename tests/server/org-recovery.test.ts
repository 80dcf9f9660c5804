// The organisation recovery policy over real HTTP (docs/api.md "Organisation recovery"), on SQLite
// and, with DATABASE_URL, PostgreSQL: off by default; only organisation admins manage it; of two
// admins turning it on at once one wins; a member's deposit is refused while off, for another
// organisation key or for a key pair that is not theirs; turning it off deletes every copy, also
// with deposits racing it; the restore route answers only a live request of a member whose key is
// held, for an admin. The server cannot open copies, so these tests send opaque bytes; the
// browser's part is e2e/sso-org-recovery.spec.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../server/db/connection.ts';
import { startServer, type TestServer } from './harness.ts';
import type { TestClient } from './http-client.ts';
import { observeDatabase } from './table-rows.ts';
import { rsaSpki, p256Spki } from './public-keys.ts';

let server: TestServer;
let database: OpenDatabase;

const copy = (byte: number) => Buffer.alloc(96, byte).toString('base64');

interface Person {
  client: TestClient;
  id: number;
  username: string;
  spki: string;
}

let counter = 0;
/** A signed-in account with a key pair (its public key stored as the app does). */
async function person(role: 'admin' | 'member'): Promise<Person> {
  counter += 1;
  const username = `${role}${counter}`;
  const user = await server.createUser(username, 'correct horse');
  if (role === 'admin') await server.app.repos.users.setOrgRole(user.id, 'admin');
  const client = server.client();
  expect((await client.login(username, 'correct horse')).status).toBe(200);
  const spki = rsaSpki();
  expect((await client.put('/api/auth/public-key', { public_key_spki: spki })).status).toBe(200);
  return { client, id: user.id, username, spki };
}

async function enable(admin: Person, orgSpki = p256Spki()) {
  return admin.client.post('/api/org/recovery', { public_key_spki: orgSpki, admin_copy: copy(1), wrapped_for_spki: admin.spki });
}

async function turnOffIfOn(admin: Person): Promise<void> {
  const status = await admin.client.get('/api/org/recovery');
  if (status.body.key) expect((await admin.client.request('DELETE', '/api/org/recovery')).status).toBe(204);
}

async function keyId(client: TestClient): Promise<string> {
  const state = await client.get('/api/auth/org-recovery-copy');
  expect(state.status).toBe(200);
  return state.body.key.id as string;
}

async function deposit(member: Person, id: string, byte = 2) {
  return member.client.put('/api/auth/org-recovery-copy', { key_id: id, wrapped_for_spki: member.spki, copy: copy(byte) });
}

async function countRows(table: 'org_recovery_member_copies' | 'org_recovery_admin_copies' | 'org_recovery_keys'): Promise<number> {
  const row = await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

let admin: Person;
let member: Person;

beforeAll(async () => {
  server = await startServer();
  database = await observeDatabase(server);
  admin = await person('admin');
  member = await person('member');
});
afterAll(async () => {
  await database?.close();
  await server?.close();
});

describe('the organisation recovery policy', () => {
  it('is off by default, for admins and members alike', async () => {
    expect((await admin.client.get('/api/org/recovery')).body).toMatchObject({ key: null, admin_copy: null, admins: [] });
    expect((await member.client.get('/api/auth/org-recovery-copy')).body).toEqual({ key: null, stored: false });
    const refused = await member.client.put('/api/auth/org-recovery-copy', { key_id: randomUUID(), wrapped_for_spki: member.spki, copy: copy(2) });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ORG_RECOVERY_OFF');
    expect((await admin.client.request('DELETE', '/api/org/recovery')).body.code).toBe('ORG_RECOVERY_OFF');
  });

  it('is managed by organisation admins only', async () => {
    const approvalId = randomUUID();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/org/recovery'],
      ['POST', '/api/org/recovery', { public_key_spki: p256Spki(), admin_copy: copy(1), wrapped_for_spki: member.spki }],
      ['DELETE', '/api/org/recovery'],
      ['PUT', `/api/org/recovery/admins/${member.id}/copy`, { key_id: randomUUID(), wrapped_for_spki: member.spki, copy: copy(1) }],
      ['GET', `/api/org/recovery/members/${member.id}`],
      ['POST', `/api/org/recovery/members/${member.id}/approvals/${approvalId}/restore`, { key_id: randomUUID(), approver_spki: p256Spki(), copy: copy(1) }],
    ];
    const anonymous = server.client();
    await anonymous.primeCsrf();
    for (const [method, path, body] of calls) {
      const answer = await member.client.request(method, path, body === undefined ? {} : { json: body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('ORG_ADMIN_REQUIRED');
      expect((await anonymous.request(method, path, body === undefined ? {} : { json: body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await countRows('org_recovery_keys')).toBe(0);
  });

  it('is turned on by exactly one of two admins racing, with that admin holding the key', async () => {
    const second = await person('admin');
    const answers = await Promise.all([enable(admin), enable(second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('ORG_RECOVERY_ON');
    const winner = answers[0]!.status === 201 ? admin : second;
    const loser = winner === admin ? second : admin;
    const status = await winner.client.get('/api/org/recovery');
    expect(status.body.admin_copy).toBe(copy(1));
    expect(status.body.key.enabled_by).toBe(winner.username);
    expect(status.body.admins).toEqual(
      expect.arrayContaining([
        { id: winner.id, username: winner.username, public_key_spki: winner.spki, has_copy: true },
        { id: loser.id, username: loser.username, public_key_spki: loser.spki, has_copy: false },
      ]),
    );
    expect((await loser.client.get('/api/org/recovery')).body.admin_copy).toBeNull();
    expect(await countRows('org_recovery_keys')).toBe(1);
    await turnOffIfOn(admin);
  });

  it("refuses to turn on with a copy for a key pair that is not the admin's", async () => {
    const answer = await admin.client.post('/api/org/recovery', { public_key_spki: p256Spki(), admin_copy: copy(1), wrapped_for_spki: rsaSpki() });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('KEY_PAIR_CHANGED');
    expect(await countRows('org_recovery_keys')).toBe(0);
  });

  it("stores a member's copy idempotently, only for their own key pair and the current organisation key", async () => {
    expect((await enable(admin)).status).toBe(201);
    const id = await keyId(member.client);
    expect((await member.client.get('/api/auth/org-recovery-copy')).body.stored).toBe(false);

    const notTheirs = await member.client.put('/api/auth/org-recovery-copy', { key_id: id, wrapped_for_spki: admin.spki, copy: copy(3) });
    expect(notTheirs.body.code).toBe('KEY_PAIR_CHANGED');
    expect((await member.client.put('/api/auth/org-recovery-copy', { key_id: id, wrapped_for_spki: rsaSpki(), copy: copy(3) })).body.code).toBe('KEY_PAIR_CHANGED');
    expect((await deposit(member, randomUUID())).body.code).toBe('ORG_KEY_CHANGED');

    // The same request twice (a retry), and twice at once: one row, the latest copy.
    expect((await deposit(member, id, 4)).status).toBe(204);
    const again = await Promise.all([deposit(member, id, 5), deposit(member, id, 5)]);
    expect(again.map((answer) => answer.status)).toEqual([204, 204]);
    expect((await member.client.get('/api/auth/org-recovery-copy')).body).toEqual({ key: { id, public_key_spki: expect.any(String) }, stored: true });
    expect(await countRows('org_recovery_member_copies')).toBe(1);
    expect((await admin.client.get(`/api/org/recovery/members/${member.id}`)).body).toMatchObject({ id: member.id, public_key_spki: member.spki, copy: copy(5), approvals: [] });
    expect((await admin.client.get('/api/org/recovery')).body.members).toContainEqual({ id: member.id, has_copy: true, pending_approvals: 0 });

    // A new key pair of the member: the old copy no longer counts.
    const newSpki = rsaSpki();
    expect((await member.client.put('/api/auth/public-key', { public_key_spki: newSpki })).status).toBe(200);
    expect((await member.client.get('/api/auth/org-recovery-copy')).body.stored).toBe(false);
    expect((await admin.client.get(`/api/org/recovery/members/${member.id}`)).body.copy).toBeNull();
    member.spki = newSpki;
    expect((await deposit(member, id, 6)).status).toBe(204);
    await turnOffIfOn(admin);
  });

  it('deletes every copy when turned off, also with deposits racing it, and then refuses deposits', async () => {
    const others = [await person('member'), await person('member'), await person('member')];
    for (let round = 0; round < 6; round++) {
      expect((await enable(admin)).status).toBe(201);
      const id = await keyId(member.client);
      expect((await deposit(member, id)).status).toBe(204);
      const [off, ...deposits] = await Promise.all([admin.client.request('DELETE', '/api/org/recovery'), ...others.map((other) => deposit(other, id))]);
      expect(off!.status).toBe(204);
      for (const answer of deposits) {
        expect([204, 409]).toContain(answer.status);
        if (answer.status === 409) expect(answer.body.code).toBe('ORG_RECOVERY_OFF');
      }
      expect(await countRows('org_recovery_member_copies')).toBe(0);
      expect(await countRows('org_recovery_admin_copies')).toBe(0);
      expect(await countRows('org_recovery_keys')).toBe(0);
      // Recorded with what it deleted: the member's copy and every deposit that won the race.
      const logged = await admin.client.get('/api/activity?kind=org_recovery.disabled&limit=1');
      expect(logged.body.entries[0].details.member_copies_deleted).toBe(1 + deposits.filter((answer) => answer.status === 204).length);
      // A deposit for the key that was: refused.
      expect((await deposit(others[0]!, id)).body.code).toBe('ORG_RECOVERY_OFF');
    }
    expect((await member.client.get('/api/auth/org-recovery-copy')).body).toEqual({ key: null, stored: false });
  });

  it("refuses a deposit for an earlier key once the policy was turned off and on again", async () => {
    expect((await enable(admin)).status).toBe(201);
    const first = await keyId(member.client);
    await turnOffIfOn(admin);
    expect((await enable(admin)).status).toBe(201);
    expect((await deposit(member, first)).body.code).toBe('ORG_KEY_CHANGED');
    expect(await countRows('org_recovery_member_copies')).toBe(0);
    await turnOffIfOn(admin);
  });

  it('lets an admin who holds the key give a copy to another organisation admin only', async () => {
    expect((await enable(admin)).status).toBe(201);
    const id = await keyId(admin.client);
    const colleague = await person('admin');
    const grant = (target: Person, body: Record<string, unknown> = {}) =>
      admin.client.put(`/api/org/recovery/admins/${target.id}/copy`, { key_id: id, wrapped_for_spki: target.spki, copy: copy(7), ...body });
    expect((await grant(member)).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await admin.client.put('/api/org/recovery/admins/999999/copy', { key_id: id, wrapped_for_spki: colleague.spki, copy: copy(7) })).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await grant(colleague, { wrapped_for_spki: rsaSpki() })).body.code).toBe('KEY_PAIR_CHANGED');
    expect((await grant(colleague, { key_id: randomUUID() })).body.code).toBe('ORG_KEY_CHANGED');
    expect((await grant(colleague)).status).toBe(204);
    expect((await grant(colleague)).status).toBe(204);
    expect((await colleague.client.get('/api/org/recovery')).body.admin_copy).toBe(copy(7));
    expect((await admin.client.get('/api/org/recovery')).body.admins).toContainEqual({ id: colleague.id, username: colleague.username, public_key_spki: colleague.spki, has_copy: true });
    await turnOffIfOn(admin);
    expect((await colleague.client.get('/api/org/recovery')).body.admin_copy).toBeNull();
    expect((await grant(colleague)).body.code).toBe('ORG_RECOVERY_OFF');
  });
});

describe("restoring a member's access", () => {
  async function request(who: Person): Promise<string> {
    const created = await who.client.post('/api/auth/device-approvals', { requester_spki: p256Spki(), name: 'New laptop' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  const restore = (by: Person, memberId: number, approvalId: string, id: string, byte = 8) =>
    by.client.post(`/api/org/recovery/members/${memberId}/approvals/${approvalId}/restore`, { key_id: id, approver_spki: p256Spki(), copy: copy(byte) });

  it("answers the member's live request through their own poll, recorded in both activity logs", async () => {
    const lost = await person('member');
    expect((await enable(admin)).status).toBe(201);
    const id = await keyId(lost.client);

    const withoutCopy = await request(lost);
    const refused = await restore(admin, lost.id, withoutCopy, id);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('ORG_RECOVERY_COPY_NOT_FOUND');

    expect((await deposit(lost, id)).status).toBe(204);
    const approvalId = await request(lost);
    const shown = await admin.client.get(`/api/org/recovery/members/${lost.id}`);
    expect(shown.body.approvals.map((approval: { id: string }) => approval.id)).toEqual([withoutCopy, approvalId]);
    expect((await admin.client.get('/api/org/recovery')).body.members).toContainEqual({ id: lost.id, has_copy: true, pending_approvals: 2 });

    // Another member's request through this member's path, and this member's through another's.
    const bystander = await person('member');
    expect((await deposit(bystander, id)).status).toBe(204);
    const theirs = await request(bystander);
    expect((await restore(admin, lost.id, theirs, id)).body.code).toBe('APPROVAL_NOT_FOUND');
    expect((await restore(admin, bystander.id, approvalId, id)).body.code).toBe('APPROVAL_NOT_FOUND');
    expect((await restore(admin, 999999, approvalId, id)).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await restore(admin, lost.id, approvalId, randomUUID())).body.code).toBe('ORG_KEY_CHANGED');
    // A member cannot restore anyone, themselves included.
    expect((await restore(lost, lost.id, approvalId, id)).status).toBe(403);

    // Two admins answering at once: one wins; the request is then answered, so a third is refused.
    const colleague = await person('admin');
    const answers = await Promise.all([restore(admin, lost.id, approvalId, id, 9), restore(colleague, lost.id, approvalId, id, 10)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404]);
    expect((await restore(admin, lost.id, approvalId, id)).body.code).toBe('APPROVAL_NOT_FOUND');
    const polled = await lost.client.get(`/api/auth/device-approvals/${approvalId}`);
    expect(polled.body).toMatchObject({ status: 'approved', approver_spki: expect.any(String) });
    expect([copy(9), copy(10)]).toContain(polled.body.copy);

    const memberLog = await lost.client.get('/api/activity?kind=org_recovery.restored');
    expect(memberLog.body.entries).toHaveLength(1);
    expect(memberLog.body.entries[0].details).toMatchObject({ approval_id: approvalId });
    const winner = answers[0]!.status === 204 ? admin : colleague;
    const adminLog = await winner.client.get('/api/activity?kind=member.access_restored');
    expect(adminLog.body.entries[0].details).toMatchObject({ account_id: lost.id, approval_id: approvalId });
    await turnOffIfOn(admin);
  });

  it('refuses an expired request, and everything while the policy is off', async () => {
    const lost = await person('member');
    expect((await enable(admin)).status).toBe(201);
    const id = await keyId(lost.client);
    expect((await deposit(lost, id)).status).toBe(204);
    const approvalId = await request(lost);
    server.clock.advance(11 * 60_000);
    try {
      expect((await restore(admin, lost.id, approvalId, id)).body.code).toBe('APPROVAL_NOT_FOUND');
      expect((await admin.client.get(`/api/org/recovery/members/${lost.id}`)).body.approvals).toEqual([]);
    } finally {
      server.clock.advance(-11 * 60_000);
    }
    const live = await request(lost);
    await turnOffIfOn(admin);
    expect((await restore(admin, lost.id, live, id)).body.code).toBe('ORG_RECOVERY_OFF');
    expect((await admin.client.get(`/api/org/recovery/members/${lost.id}`)).body.code).toBe('ORG_RECOVERY_OFF');
  });

  it('refuses malformed bodies and ids', async () => {
    expect((await enable(admin)).status).toBe(201);
    const id = await keyId(member.client);
    const bad: Array<[string, string, Record<string, unknown>]> = [
      // An RSA key where the organisation's ECDH P-256 key belongs, and the other way round.
      ['POST', '/api/org/recovery', { public_key_spki: rsaSpki(), admin_copy: copy(1), wrapped_for_spki: admin.spki }],
      ['POST', '/api/org/recovery', { public_key_spki: p256Spki(), admin_copy: copy(1), wrapped_for_spki: p256Spki() }],
      ['POST', '/api/org/recovery', { public_key_spki: p256Spki(), admin_copy: 'not base64!', wrapped_for_spki: admin.spki }],
      ['POST', '/api/org/recovery', { public_key_spki: p256Spki() }],
      ['PUT', `/api/org/recovery/admins/${admin.id}/copy`, { key_id: 'not-a-uuid', wrapped_for_spki: admin.spki, copy: copy(1) }],
      ['PUT', `/api/org/recovery/admins/${admin.id}/copy`, { key_id: id.toUpperCase(), wrapped_for_spki: admin.spki, copy: copy(1) }],
      ['PUT', `/api/org/recovery/admins/${admin.id}/copy`, { key_id: id, wrapped_for_spki: admin.spki, copy: 'A'.repeat(9000) }],
      ['PUT', '/api/auth/org-recovery-copy', { key_id: id, wrapped_for_spki: p256Spki(), copy: copy(1) }],
      ['PUT', '/api/auth/org-recovery-copy', { key_id: id, wrapped_for_spki: member.spki, copy: '' }],
      ['PUT', '/api/auth/org-recovery-copy', { key_id: 7, wrapped_for_spki: member.spki, copy: copy(1) }],
      ['POST', `/api/org/recovery/members/${member.id}/approvals/${randomUUID()}/restore`, { key_id: id, approver_spki: rsaSpki(), copy: copy(1) }],
      ['POST', `/api/org/recovery/members/${member.id}/approvals/not-a-uuid/restore`, { key_id: id, approver_spki: p256Spki(), copy: copy(1) }],
      ['POST', `/api/org/recovery/members/abc/approvals/${randomUUID()}/restore`, { key_id: id, approver_spki: p256Spki(), copy: copy(1) }],
      ['GET', '/api/org/recovery/members/1.5', {}],
    ];
    for (const [method, path, body] of bad) {
      const client = path.startsWith('/api/auth/') ? member.client : admin.client;
      const answer = await client.request(method, path, method === 'GET' ? {} : { json: body });
      expect(answer.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(422);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await countRows('org_recovery_keys')).toBe(1);
    await turnOffIfOn(admin);
  });
});
