import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLAIM_MESSAGE, DownloadError } from '../../../workers/index.ts';
import { controllingServiceWorker } from './serviceWorkerBridge.ts';

type ClaimAnswer = 'claims' | 'declines' | 'silent' | 'refuses';

/**
 * A navigator.serviceWorker with one registration and no controller until `claim()`. Its active
 * worker (once there is one) answers the page's claim message as `answer` says: `claims` takes the
 * page and then replies, `declines` replies without taking it, `silent` never replies, `refuses`
 * throws as a worker gone redundant may.
 */
function fakeContainer(state: { active?: boolean; installing?: boolean }, answer: ClaimAnswer) {
  const events = new EventTarget();
  const claimRequests: unknown[] = [];
  const worker = {
    state: 'activated',
    postMessage(message: unknown, transfer: MessagePort[]) {
      if (answer === 'refuses') throw new DOMException('redundant', 'InvalidStateError');
      claimRequests.push(message);
      const [port] = transfer;
      if (answer === 'silent' || !port) return;
      if (answer === 'claims') container.claim();
      port.postMessage({ claimed: answer === 'claims' });
      port.close();
    },
  };
  const registration = {
    active: state.active ? worker : null,
    installing: state.installing ? {} : null,
  };
  let becameActive!: (value: unknown) => void;
  const container = Object.assign(events, {
    controller: null as object | null,
    ready: new Promise((resolve) => (becameActive = resolve)),
    getRegistration: async () => registration,
    claim() {
      container.controller = worker;
      events.dispatchEvent(new Event('controllerchange'));
    },
    /** The worker that was installing is now active, but has not claimed this page (it was still loading). */
    activateWithoutClaim() {
      registration.active = worker;
      registration.installing = null;
      becameActive(registration);
    },
  });
  if (state.active) becameActive(registration);
  vi.stubGlobal('navigator', { serviceWorker: container });
  return { container, worker, claimRequests };
}

async function failure(asked: Promise<unknown>): Promise<DownloadError> {
  const error = await asked.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DownloadError);
  return error as DownloadError;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('controllingServiceWorker', () => {
  it('answers at once with the controller of a controlled page, and asks nothing', async () => {
    const { container, worker, claimRequests } = fakeContainer({ active: true }, 'claims');
    container.controller = worker;
    await expect(controllingServiceWorker()).resolves.toBe(worker);
    expect(claimRequests).toEqual([]);
  });

  it('refuses at once when no worker is registered (blocked, a private window)', async () => {
    vi.stubGlobal('navigator', { serviceWorker: { controller: null, getRegistration: async () => undefined } });
    expect((await failure(controllingServiceWorker())).code).toBe('NO_STREAMING_SUPPORT');
  });

  it('asks an activated worker that has not taken the page (loaded as it activated, or by a hard reload) to claim it', async () => {
    const { worker, claimRequests } = fakeContainer({ active: true }, 'claims');
    await expect(controllingServiceWorker()).resolves.toBe(worker);
    expect(claimRequests).toEqual([{ type: CLAIM_MESSAGE }]);
  });

  it('refuses about a second after the worker answered without taking the page', async () => {
    const { claimRequests } = fakeContainer({ active: true }, 'declines');
    const began = Date.now();
    expect((await failure(controllingServiceWorker())).code).toBe('NO_STREAMING_SUPPORT');
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    expect(claimRequests).toHaveLength(1);
  });

  it('refuses at the wait limit when the worker never answers', async () => {
    vi.useFakeTimers();
    fakeContainer({ active: true }, 'silent');
    const asked = failure(controllingServiceWorker(15_000));
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await asked).code).toBe('NO_STREAMING_SUPPORT');
  });

  it('refuses at once when the worker refuses the message', async () => {
    vi.useFakeTimers();
    fakeContainer({ active: true }, 'refuses');
    const asked = failure(controllingServiceWorker(15_000));
    await vi.advanceTimersByTimeAsync(0);
    expect((await asked).code).toBe('NO_STREAMING_SUPPORT');
  });

  it('waits for a worker still installing (first visit), which claims the page as it activates', async () => {
    vi.useFakeTimers();
    const { container, worker, claimRequests } = fakeContainer({ installing: true }, 'silent');
    const asked = controllingServiceWorker(15_000);
    await vi.advanceTimersByTimeAsync(10_000);
    container.claim();
    await expect(asked).resolves.toBe(worker);
    expect(claimRequests).toEqual([]);
  });

  it('asks a worker that activated during the wait without taking the page, in the time left', async () => {
    vi.useFakeTimers();
    const { container, worker, claimRequests } = fakeContainer({ installing: true }, 'claims');
    const asked = controllingServiceWorker(15_000);
    await vi.advanceTimersByTimeAsync(3_000);
    container.activateWithoutClaim();
    await vi.advanceTimersByTimeAsync(10);
    await expect(asked).resolves.toBe(worker);
    expect(claimRequests).toEqual([{ type: CLAIM_MESSAGE }]);
  });
});
