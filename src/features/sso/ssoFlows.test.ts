// @vitest-environment jsdom
// The approval wait of a new browser (waitForApproval) against a network that fails: the real
// crypto pool and Redux store, the server's answers played by the fake API so each fault is exact.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { installFakeApi, type FakeHandler, type RecordedRequest } from '../../app/testing/fakeApi.ts';
import { signedInState, testUser } from '../../app/testing/renderWithProviders.tsx';
import { inProcessCryptoPool } from '../../app/testing/testCryptoPool.ts';
import { selectPrivateKey } from '../keys/keysSlice.ts';
import { APPROVAL_POLL_FAILURES_ALLOWED, askForApproval, waitForApproval, type PendingRequest } from './ssoFlows.ts';
import { readDevice } from './deviceStore.ts';

const REQUEST_ID = 'c0ffee00-0000-4000-8000-000000000001';
const STATUS = `GET /api/auth/device-approvals/${REQUEST_ID}`;
const WITHDRAW = `DELETE /api/auth/device-approvals/${REQUEST_ID}`;
const POLL_MS = 5;

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function setup(statusAnswers: FakeHandler, user = testUser) {
  const pool = inProcessCryptoPool();
  const api = installFakeApi({
    'POST /api/auth/device-approvals': () => ({ status: 201, body: { id: REQUEST_ID, expires_at: new Date(Date.now() + 600_000).toISOString() } }),
    [STATUS]: statusAnswers,
    [WITHDRAW]: () => ({ status: 200, body: { detail: 'Approval request removed' } }),
  });
  cleanups.push(api.restore, () => pool.terminate());
  const store = makeStore(signedInState(user));
  const deps = { dispatch: store.dispatch, pool: () => pool };
  const request = await askForApproval(deps);
  return { api, pool, store, deps, request };
}

const withdrawn = (requests: RecordedRequest[]) => requests.filter((request) => `${request.method} ${request.path}` === WITHDRAW).length;
const polls = (requests: RecordedRequest[]) => requests.filter((request) => `${request.method} ${request.path}` === STATUS).length;

async function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

async function eventually(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('waiting for another device to approve', () => {
  it('rides out failed polls (network, 503) and still ends when the request expired, withdrawing it', async () => {
    let n = 0;
    const { api, deps, request } = await setup(() => {
      n += 1;
      if (n === 1) throw new TypeError('Failed to fetch');
      if (n === 2) return { status: 503, body: { detail: 'Service Unavailable' } };
      if (n === 3) return { status: 200, body: { status: 'pending' } };
      return { status: 404, body: { detail: 'This approval request was answered, withdrawn or has expired.', code: 'APPROVAL_NOT_FOUND' } };
    });
    const outcome = await settle(waitForApproval(deps, { ...testUser, public_key_spki: 'AAAA' }, request, new AbortController().signal, POLL_MS));
    expect(outcome).toMatchObject({ status: 404, data: { code: 'APPROVAL_NOT_FOUND' } });
    expect(polls(api.requests)).toBe(4);
    await eventually(() => withdrawn(api.requests) === 1);
  });

  it(`gives up after ${APPROVAL_POLL_FAILURES_ALLOWED} failed polls in a row instead of waiting forever`, async () => {
    const { api, deps, request } = await setup(() => ({ status: 502, body: { detail: 'Bad Gateway' } }));
    const outcome = await settle(waitForApproval(deps, { ...testUser, public_key_spki: 'AAAA' }, request, new AbortController().signal, POLL_MS));
    expect(outcome).toMatchObject({ status: 502 });
    expect(polls(api.requests)).toBe(APPROVAL_POLL_FAILURES_ALLOWED);
    await eventually(() => withdrawn(api.requests) === 1);
  });

  it('a refusal that waiting cannot change (403) ends the wait at once', async () => {
    const { api, deps, request } = await setup(() => ({ status: 403, body: { detail: 'CSRF validation failed', code: 'CSRF_FAILED' } }));
    const outcome = await settle(waitForApproval(deps, { ...testUser, public_key_spki: 'AAAA' }, request, new AbortController().signal, POLL_MS));
    expect(outcome).toMatchObject({ status: 403 });
    expect(polls(api.requests)).toBe(1);
  });

  it('leaving the page ends the wait between polls and withdraws the request', async () => {
    const { api, deps, request } = await setup(() => ({ status: 200, body: { status: 'pending' } }));
    const controller = new AbortController();
    const waiting = settle(waitForApproval(deps, { ...testUser, public_key_spki: 'AAAA' }, request, controller.signal, 60_000));
    await eventually(() => polls(api.requests) === 1);
    controller.abort(new DOMException('left the page', 'AbortError'));
    expect(await waiting).toMatchObject({ name: 'AbortError' });
    await eventually(() => withdrawn(api.requests) === 1);
  });

  it('after a failed poll, an approval that arrives unlocks the key and trusts this browser', async () => {
    const pool = inProcessCryptoPool();
    cleanups.push(() => pool.terminate());
    // The account's key pair, made as on its first device; that device approves below.
    const firstDeviceKey = await pool.generateDeviceKey();
    const made = await pool.createSsoKeyPair(testUser.username, firstDeviceKey, 'first-device');
    const user = { ...testUser, public_key_spki: made.publicKeySpki, has_password: false };
    let approval: { approver_spki: string; copy: string } | null = null;
    let pending: PendingRequest | null = null;
    let n = 0;
    const trusted: string[] = [];
    const api = installFakeApi({
      'POST /api/auth/device-approvals': (recorded) => {
        const { requester_spki } = JSON.parse(recorded.body) as { requester_spki: string };
        // The first device answers as soon as the request exists (after comparing the words).
        void pool
          .approveDeviceRequest({ kind: 'device', copy: made.deviceCopy, deviceKey: firstDeviceKey, deviceId: 'first-device', expectedSpki: made.publicKeySpki }, REQUEST_ID, requester_spki)
          .then((answer) => (approval = { approver_spki: answer.approverPublicKeySpki, copy: answer.copy }));
        return { status: 201, body: { id: REQUEST_ID, expires_at: new Date(Date.now() + 600_000).toISOString() } };
      },
      [STATUS]: () => {
        n += 1;
        if (n === 1) return { status: 503, body: { detail: 'Service Unavailable' } };
        return approval ? { status: 200, body: { status: 'approved', ...approval } } : { status: 200, body: { status: 'pending' } };
      },
      [WITHDRAW]: () => ({ status: 200, body: { detail: 'Approval request removed' } }),
      // Asked after every unlock: the organisation recovery policy is off, so nothing is sealed for it.
      'GET /api/auth/org-recovery-copy': () => ({ status: 200, body: { key: null, stored: false } }),
    });
    cleanups.push(api.restore);
    const store = makeStore(signedInState(user));
    const deps = { dispatch: store.dispatch, pool: () => pool };
    // The device copy goes to PUT /api/auth/devices/<new id>: answer whatever id the browser chose.
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'PUT' && new URL(request.url).pathname.startsWith('/api/auth/devices/')) {
        trusted.push(new URL(request.url).pathname);
        return new Response(JSON.stringify({ id: 'x', name: 'n', created_at: new Date().toISOString(), last_used_at: null }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      return realFetch(request);
    }) as typeof fetch;
    cleanups.push(() => (globalThis.fetch = realFetch));

    pending = await askForApproval(deps);
    await waitForApproval(deps, user, pending, new AbortController().signal, POLL_MS);
    expect(selectPrivateKey(store.getState())).not.toBeNull();
    expect(trusted).toHaveLength(1);
    expect((await readDevice(user.id))?.id).toBe(trusted[0]!.split('/').pop());
    expect(api.requests.filter((request) => `${request.method} ${request.path}` === 'GET /api/auth/org-recovery-copy')).toHaveLength(1);
    await eventually(() => withdrawn(api.requests) === 1);
  });
});
