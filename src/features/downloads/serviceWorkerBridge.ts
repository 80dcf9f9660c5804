/**
 * The page's side of the service-worker download endpoint: finds the worker that controls this
 * page, hands it a plan, and starts the browser's download of the plan's URL.
 */
import { safeFileName } from '../../../contract/content-disposition.ts';
import { t } from '../../i18n/language.ts';
import {
  DownloadError,
  downloadPath,
  KEEPALIVE_MESSAGE,
  CLAIM_MESSAGE,
  DOWNLOAD_SERVICE_MESSAGES,
  PLAN_MESSAGE,
  type DownloadPlan,
  type KeepaliveMessage,
  type ClaimMessage,
  settleWithin,
} from '../../../workers/index.ts';
import type { PlanBody } from './downloadPlan.ts';
import type { DownloadReceiver } from './downloadStatus.ts';
import type { DecryptedDownloadSource, DownloadDestination } from './types.ts';

/** The app registers its worker at start; on a first visit it takes control once installed. */
const CONTROLLER_WAIT_MS = 15_000;
/**
 * How long a page waits for "controllerchange" once the worker has answered that it claimed the
 * page: the claim and the event reach the page on different channels.
 */
const CLAIM_GRACE_MS = 1_000;
/** From the worker's 'ready' until the download manager's request reaches it. */
const START_TIMEOUT_MS = 30_000;
/** Below the browser's idle timeout for service workers (30 s in Chromium). */
export const KEEPALIVE_INTERVAL_MS = 10_000;

function noStreaming(): DownloadError {
  return new DownloadError('NO_STREAMING_SUPPORT');
}

/** Whether `arrived` resolves within `ms` (the time limit is workers/deadline.ts'). */
function within(ms: number, arrived: Promise<unknown>): Promise<boolean> {
  return settleWithin(
    arrived.then(() => true),
    ms,
    () => noStreaming(),
  ).catch(() => false);
}

/**
 * Asks an activated worker to take this page over: true once it answered (whether it did is told
 * by "controllerchange"), false after `ms` without an answer (a worker stopped or replaced).
 */
async function askedToClaim(worker: ServiceWorker, ms: number): Promise<boolean> {
  const channel = new MessageChannel();
  const answered = new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
  });
  try {
    const message: ClaimMessage = { type: CLAIM_MESSAGE };
    worker.postMessage(message, [channel.port2]);
    return await within(ms, answered);
  } catch {
    return false; // a worker that became redundant refuses messages
  } finally {
    channel.port1.close();
  }
}

/**
 * The service worker controlling this page. Without one (blocked, private mode, the development
 * server) downloads fail with NO_STREAMING_SUPPORT: there is deliberately no fallback that would
 * collect a whole file in memory.
 *
 * The worker claims the open pages as it activates (workers/sw.ts), so on a first visit the page
 * waits for a worker still installing. But claim() passes over a page that was still loading at
 * that moment (a reload while the worker activated, seen in CI on a loaded machine) and a page
 * loaded by a hard reload; either would stay uncontrolled until the next normal load, so the page
 * asks the activated worker to claim it now.
 */
export async function controllingServiceWorker(waitMs = CONTROLLER_WAIT_MS): Promise<ServiceWorker> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) throw noStreaming();
  const container = navigator.serviceWorker;
  if (container.controller) return container.controller;
  const registration = await container.getRegistration();
  if (!registration) throw noStreaming();
  const controlled = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
  const started = Date.now();
  // A worker still installing: until it claims this page, or at least is active (then it is asked).
  if (!registration.active) await within(waitMs, Promise.race([controlled, container.ready]));
  const active = registration.active;
  if (!container.controller && active) {
    const left = Math.max(0, waitMs - (Date.now() - started));
    if (await askedToClaim(active, left)) await within(CLAIM_GRACE_MS, controlled);
  }
  if (!container.controller) throw noStreaming();
  return container.controller;
}

/** Keeps the worker from being stopped as idle while it streams; returns the stop function. */
export function keepServiceWorkerAlive(worker: ServiceWorker): () => void {
  const message: KeepaliveMessage = { type: KEEPALIVE_MESSAGE };
  const timer = setInterval(() => {
    try {
      worker.postMessage(message);
    } catch {
      // A replaced worker: the download it served has ended or will report so.
    }
  }, KEEPALIVE_INTERVAL_MS);
  return () => clearInterval(timer);
}

/** How long the hidden frame of a finished download stays in the page (see triggerBrowserDownload). */
const DOWNLOAD_FRAME_LINGER_MS = 30_000;

/**
 * Starts the browser's download of a registered plan (its download manager writes to disk). A
 * hidden iframe navigates to the plan's URL: navigations go through the service worker, and its
 * attachment response turns into a download. (An <a download> click does not: Chromium sends
 * such requests past the service worker, straight to the network.) Returns the clean-up, to run
 * once the download has ended.
 */
export function triggerBrowserDownload(id: string, fileName: string): () => void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = 'download';
  frame.src = downloadPath(id, fileName);
  document.body.append(frame);
  // Removed a while after the download ended, not at once: Chromium announces a download with the
  // frame that started it, and a file of a few bytes can be complete before that announcement;
  // tools that follow downloads over DevTools (Playwright) drop a download whose frame is gone.
  return () => void setTimeout(() => frame.remove(), DOWNLOAD_FRAME_LINGER_MS);
}

/**
 * A file or a ZIP for the browser's downloads, run by the controlling service worker: once it has
 * the keys, the hidden iframe starts the download manager's request, and the worker is kept awake
 * until the download ends.
 */
export async function serviceWorkerReceiver(
  destination: Extract<DownloadDestination, { kind: 'browser-file' | 'browser-zip' }>,
  sources: readonly DecryptedDownloadSource[],
  body: PlanBody,
): Promise<DownloadReceiver> {
  const worker = await controllingServiceWorker();
  const fileName = safeFileName(destination.kind === 'browser-zip' ? destination.zipName : sources[0]!.name);
  const plan: DownloadPlan = {
    type: PLAN_MESSAGE,
    id: crypto.randomUUID(),
    kind: destination.kind === 'browser-zip' ? 'zip' : 'file',
    fileName,
    ...body,
    texts: { expired: t(DOWNLOAD_SERVICE_MESSAGES.expired), failed: t(DOWNLOAD_SERVICE_MESSAGES.failed) },
  };
  let stopKeepalive = () => {};
  let removeTrigger = () => {};
  return {
    post: (keyPort, statusPort) => worker.postMessage(plan, [keyPort, statusPort]),
    ready() {
      stopKeepalive = keepServiceWorkerAlive(worker);
      removeTrigger = triggerBrowserDownload(plan.id, fileName);
      return START_TIMEOUT_MS;
    },
    // The service worker is not ended with the download, so nothing is left to wait for.
    abortGraceMs: 0,
    watch: () => undefined,
    end() {
      stopKeepalive();
      removeTrigger();
    },
  };
}
