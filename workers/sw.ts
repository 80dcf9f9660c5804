/// <reference lib="webworker" />
// The service worker: precaches the built shell (Workbox injects the manifest at build time) and
// answers page navigations with index.html, so the installed app opens offline. API calls are never
// answered from a cache, nor by this worker at all: where the browser can, they skip it
// (sw-network-routes.ts).
//
// It also streams downloads (workers/download-service, docs/download.md): the page
// registers a download plan by message, the crypto worker sends the file keys over a port, and the
// browser's download manager fetches /downloads/{id}/{name}, answered with the decrypted file or
// ZIP as it is fetched. Its listeners come first, so Workbox never sees those requests.
import { cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { BUILD_DIGESTS_URL, buildDigestsCacheName, describeBuild, fetchBuildDigestsText, isBuildDigestsCache } from './build-identity/describeBuild.ts';
import { isBuildIdentityRequest, type BuildIdentityReply } from './build-identity/protocol.ts';
import { DownloadService } from './download-service/downloadService.ts';
import { isClaimMessage, isDownloadPlan, KEEPALIVE_MESSAGE, type ClaimReply } from './download-service/protocol.ts';
import { addNetworkRoutes } from './sw-network-routes.ts';

declare const self: ServiceWorkerGlobalScope;

const downloads = new DownloadService();

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (isDownloadPlan(data)) {
    const [keyPort, statusPort] = event.ports;
    if (keyPort && statusPort) event.waitUntil(downloads.register(data, keyPort, statusPort));
    return;
  }
  // The page pings while a download runs: each message event keeps this worker from being
  // stopped as idle, which would cut the stream the download manager is reading.
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === KEEPALIVE_MESSAGE) {
    event.waitUntil(Promise.resolve());
  }
});

// API requests skip the fetch listeners below where the browser can route them (sw-network-routes.ts).
self.addEventListener('install', (event) => addNetworkRoutes(event, self.location.origin));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method === 'GET' && downloads.handles(url, self.location.origin)) {
    event.respondWith(downloads.respond(url));
  }
});

// Workbox replaces the one occurrence of self.__WB_MANIFEST with the build's precache list.
const PRECACHE_MANIFEST = self.__WB_MANIFEST;
precacheAndRoute(PRECACHE_MANIFEST);
cleanupOutdatedCaches();

// The build's list of file digests, kept from install on (build-identity/describeBuild.ts): the
// update prompt and the About page show the digest of the build this worker runs. A list that is
// missing or does not match itself fails the install, so no update is offered without one. Its
// cache is named after this worker's code (the build writes a key of it over this placeholder,
// scripts/build-digests/sw-code-key.ts) and its precache manifest: two builds never share one.
const SW_CODE_KEY = 'sealdrop-sw-code-key-placeholder';
const BUILD_DIGESTS_CACHE = buildDigestsCacheName(SW_CODE_KEY, PRECACHE_MANIFEST);
self.addEventListener('install', (event) => {
  event.waitUntil(
    fetchBuildDigestsText((input, init) => fetch(input, init)).then(async (text) => {
      const cache = await caches.open(BUILD_DIGESTS_CACHE);
      await cache.put(BUILD_DIGESTS_URL, new Response(text, { headers: { 'content-type': 'application/json' } }));
    }),
  );
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys().then((names) => Promise.all(names.filter((name) => isBuildDigestsCache(name) && name !== BUILD_DIGESTS_CACHE).map((name) => caches.delete(name)))),
  );
});
async function buildIdentityReply(): Promise<BuildIdentityReply> {
  try {
    const stored = await (await caches.open(BUILD_DIGESTS_CACHE)).match(BUILD_DIGESTS_URL);
    if (!stored) return { ok: false, code: 'NO_BUILD_DIGESTS' };
    return { ok: true, identity: await describeBuild(await stored.text(), (path) => matchPrecache(path)) };
  } catch (error) {
    const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'UNAVAILABLE';
    return { ok: false, code };
  }
}
self.addEventListener('message', (event) => {
  const [port] = event.ports;
  if (isBuildIdentityRequest(event.data) && port) event.waitUntil(buildIdentityReply().then((reply) => port.postMessage(reply)));
});

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/, /^\/downloads\//] }));

// A new version waits until the page asks (workbox-window messageSkipWaiting, after the person
// chose "Reload to update"), and even then not while a download streams through this worker:
// the download manager reads that stream, and replacing the worker would cut it.
const SKIP_WAITING_RETRY_MS = 1000;
function skipWaitingWhenIdle(): Promise<void> {
  if (downloads.activeCount === 0) return self.skipWaiting();
  return new Promise((resolve) => setTimeout(resolve, SKIP_WAITING_RETRY_MS)).then(skipWaitingWhenIdle);
}
self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') event.waitUntil(skipWaitingWhenIdle());
});
// The first install has nothing to replace: it controls the open pages at once. Inside the
// activate event's waitUntil (Workbox's clientsClaim() calls claim() outside it), so this worker
// is "activated" only once it controls the pages: a page that sees an activated worker and no
// controller is then really uncontrolled (a hard reload), not in the middle of the claim; without
// it, a download clicked right after a first visit could fail with "not active in this tab"
// (docs/download.md, "Measurements behind the code").
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
// A page this worker did not take over (one still loading when it activated, or loaded by a hard
// reload) asks when it needs the worker for a download (src/features/downloads/serviceWorkerBridge.ts).
self.addEventListener('message', (event) => {
  const [port] = event.ports;
  if (!isClaimMessage(event.data) || !port) return;
  const reply = (claimed: boolean) => port.postMessage({ claimed } satisfies ClaimReply);
  event.waitUntil(self.clients.claim().then(() => reply(true), () => reply(false)));
});
