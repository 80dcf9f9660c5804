/// <reference lib="webworker" />
// Requests the service worker never answers go straight to the network, without a fetch event,
// where the browser has the Service Worker Static Routing API (InstallEvent.addRoutes; Chromium
// has it, Firefox does not and keeps dispatching every request to the worker, which lets API
// calls through untouched: workers/sw.ts).
//
// Why it matters: every request of a controlled page first goes to the worker's fetch listeners,
// and to do that Chromium hands the worker the request, body included. A folder upload's batch
// bodies were copied into the worker's process that way and kept there until its collector ran,
// up to the whole folder's ciphertext; every other API request also went to the worker first,
// only to be let through (docs/operations.md, "The service worker saw every upload request").

/** The API: never answered by the worker, never cached (workers/sw.ts). */
const API_PATHNAME = '/api/*';

/** The part of the Static Routing API used here (not yet in TypeScript's lib). */
interface NetworkRouterRule {
  readonly condition: { readonly urlPattern: URLPattern };
  readonly source: 'network';
}

interface InstallEventWithRoutes extends ExtendableEvent {
  addRoutes(rules: NetworkRouterRule | readonly NetworkRouterRule[]): Promise<void>;
}

function canAddRoutes(event: ExtendableEvent): event is InstallEventWithRoutes {
  return typeof (event as Partial<InstallEventWithRoutes>).addRoutes === 'function' && typeof URLPattern === 'function';
}

/** The rules: the API of this worker's own origin. */
function networkRoutes(origin: string): NetworkRouterRule[] {
  const { protocol, hostname, port } = new URL(origin);
  return [{ condition: { urlPattern: new URLPattern({ protocol: protocol.slice(0, -1), hostname, port, pathname: API_PATHNAME }) }, source: 'network' }];
}

/**
 * Registers the rules during install. A browser that refuses them still installs the worker: its
 * fetch listener lets the same requests through, only later; the refusal is logged.
 */
export function addNetworkRoutes(event: ExtendableEvent, origin: string): void {
  if (!canAddRoutes(event)) return;
  event.waitUntil(
    event.addRoutes(networkRoutes(origin)).catch((error: unknown) => {
      console.warn('service worker: API requests keep going through the fetch event; the browser refused the network routes', error);
    }),
  );
}
