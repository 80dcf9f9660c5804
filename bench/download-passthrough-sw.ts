// A bare service worker for bench/download.ts, served only by the benchmark's own copy of the app
// (never built into the app): it answers /__bench/passthrough?url=... with the fetched response
// body as it is (no decryption, no ZIP, no JavaScript stream in between) as an attachment. Its
// download rate is the ceiling of any service-worker streaming download in this browser on this
// machine: fetch into the worker, hand the bytes back out, write them to disk.
export const PASSTHROUGH_SW_PATH = '/bench-passthrough-sw.js';
export const PASSTHROUGH_SCOPE = '/__bench/';

export const PASSTHROUGH_SW_SOURCE = `
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.pathname === '${PASSTHROUGH_SCOPE}page') {
    event.respondWith(new Response('<!doctype html><title>bench</title>', { headers: { 'content-type': 'text/html' } }));
  } else if (url.pathname === '${PASSTHROUGH_SCOPE}passthrough') {
    event.respondWith(
      fetch(url.searchParams.get('url'), { cache: 'no-store' }).then((response) =>
        new Response(response.body, {
          headers: {
            'content-type': 'application/octet-stream',
            'content-disposition': 'attachment; filename="passthrough.bin"',
            'content-length': response.headers.get('content-length') ?? '',
          },
        }),
      ),
    );
  }
});
`;
