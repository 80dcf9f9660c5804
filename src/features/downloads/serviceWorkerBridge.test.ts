import { afterEach, describe, expect, it, vi } from 'vitest';
import { DownloadError } from '../../../workers/index.ts';
import { controllingServiceWorker } from './serviceWorkerBridge.ts';

/** A navigator.serviceWorker with one registration in `state`, and no controller until `claim()`. */
function fakeContainer(registration: { active?: { state: string }; installing?: object; waiting?: object }) {
  const events = new EventTarget();
  const container = Object.assign(events, {
    controller: null as object | null,
    getRegistration: async () => registration,
    claim(worker: object) {
      container.controller = worker;
      events.dispatchEvent(new Event('controllerchange'));
    },
  });
  vi.stubGlobal('navigator', { serviceWorker: container });
  return container;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('controllingServiceWorker', () => {
  it('takes an activated worker whose claim of the page arrives a moment after "activated"', async () => {
    const container = fakeContainer({ active: { state: 'activated' } });
    const worker = { name: 'sw' };
    setTimeout(() => container.claim(worker), 200);
    await expect(controllingServiceWorker()).resolves.toBe(worker);
  });

  it('refuses a page an activated worker does not claim (a hard reload) within about a second', async () => {
    vi.useFakeTimers();
    fakeContainer({ active: { state: 'activated' } });
    const asked = controllingServiceWorker().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await asked;
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).code).toBe('NO_STREAMING_SUPPORT');
  });

  it('waits for a worker still installing (first visit) up to its limit', async () => {
    vi.useFakeTimers();
    const container = fakeContainer({ installing: {} });
    const worker = { name: 'sw' };
    const asked = controllingServiceWorker(15_000);
    await vi.advanceTimersByTimeAsync(10_000);
    container.claim(worker);
    await expect(asked).resolves.toBe(worker);
  });
});
