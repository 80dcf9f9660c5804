/**
 * The page's side of the service-worker download endpoint: finds the worker that controls this
 * page, hands it a plan, and starts the browser's download of the plan's URL.
 */
import {
  DOWNLOAD_MESSAGES,
  DownloadError,
  downloadPath,
  KEEPALIVE_MESSAGE,
  type KeepaliveMessage,
} from '../../../workers/index.ts';

/** The app registers its worker at start; on a first visit it takes control once installed. */
const CONTROLLER_WAIT_MS = 15_000;
/**
 * How long a page with an activated worker but no controller waits before it counts as
 * uncontrolled: the worker claims pages as it activates (workers/sw.ts), and a browser may tell
 * the page "activated" a moment before "controllerchange".
 */
const CLAIM_GRACE_MS = 1_000;
/** Below the browser's idle timeout for service workers (30 s in Chromium). */
export const KEEPALIVE_INTERVAL_MS = 10_000;

function noStreaming(): DownloadError {
  return new DownloadError('NO_STREAMING_SUPPORT', DOWNLOAD_MESSAGES.noStreaming);
}

/**
 * The service worker controlling this page. Without one (blocked, private mode, a hard reload,
 * the development server) downloads fail with NO_STREAMING_SUPPORT: there is deliberately no
 * fallback that would collect a whole file in memory.
 */
export async function controllingServiceWorker(waitMs = CONTROLLER_WAIT_MS): Promise<ServiceWorker> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) throw noStreaming();
  const container = navigator.serviceWorker;
  if (container.controller) return container.controller;
  const registration = await container.getRegistration();
  if (!registration) throw noStreaming();
  // A hard reload leaves the page uncontrolled even with an activated worker; clients.claim() in the
  // worker takes pages over when it activates, so a worker still installing or activating (first
  // visit) is worth waiting for, an activated one only for a moment (CLAIM_GRACE_MS).
  const settled = registration.active?.state === 'activated' && !registration.installing && !registration.waiting;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, settled ? Math.min(CLAIM_GRACE_MS, waitMs) : waitMs);
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
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
  return () => frame.remove();
}
