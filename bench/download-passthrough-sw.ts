// A bare service worker for bench/download.ts, served only by the benchmark's own copy of the app
// (never built into the app). It answers two routes, each with the fetched ciphertext as an
// attachment:
// - /__bench/passthrough?url=...: the response body as it is (no decryption, no ZIP, no JavaScript
//   stream in between). Its download rate is the ceiling of any service-worker streaming download
//   in this browser on this machine: fetch into the worker, hand the bytes back out, write them to
//   disk.
// - /__bench/passthrough-aes?url=...: the same bytes through one AES-256-GCM pass in the worker, in
//   256 KiB records with 4 in flight (as the app decrypts), each record's output cut back to its
//   input's length so the size stays. It encrypts under a throwaway key with a counter IV: the same
//   work per byte as decrypting, without the app's key handling, record format or ZIP. The gap
//   between the two routes is what one AES-GCM pass costs on this path here; the gap between this
//   one and the app's file download is what the app adds.
export const PASSTHROUGH_SW_PATH = '/bench-passthrough-sw.js';
export const PASSTHROUGH_SCOPE = '/__bench/';

export const PASSTHROUGH_SW_SOURCE = `
const RECORD_BYTES = 256 * 1024;
const RECORDS_IN_FLIGHT = 4;

function oneAesPass(body) {
  const reader = body.getReader();
  const keyPromise = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  const pending = [];
  let counter = 0;
  let sourceDone = false;
  let leftover = null;
  async function seal(record) {
    const iv = new Uint8Array(12);
    new DataView(iv.buffer).setUint32(8, counter++);
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyPromise, record);
    return new Uint8Array(sealed, 0, record.byteLength);
  }
  // The next RECORD_BYTES of the body (fewer at its end); null once the body is used up.
  async function readRecord() {
    const record = new Uint8Array(RECORD_BYTES);
    let filled = 0;
    while (filled < RECORD_BYTES) {
      let chunk = leftover;
      leftover = null;
      if (chunk === null) {
        if (sourceDone) break;
        const { value, done } = await reader.read();
        if (done) { sourceDone = true; break; }
        chunk = value;
      }
      const take = Math.min(RECORD_BYTES - filled, chunk.byteLength);
      record.set(chunk.subarray(0, take), filled);
      filled += take;
      if (take < chunk.byteLength) leftover = chunk.subarray(take);
    }
    return filled === 0 ? null : record.subarray(0, filled);
  }
  return new ReadableStream({
    async pull(controller) {
      while (pending.length < RECORDS_IN_FLIGHT) {
        const record = await readRecord();
        if (record === null) break;
        pending.push(seal(record));
      }
      const oldest = pending.shift();
      if (oldest === undefined) controller.close();
      else controller.enqueue(await oldest);
    },
    cancel(reason) { return reader.cancel(reason); },
  }, { highWaterMark: 0 });
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.pathname === '${PASSTHROUGH_SCOPE}page') {
    event.respondWith(new Response('<!doctype html><title>bench</title>', { headers: { 'content-type': 'text/html' } }));
  } else if (url.pathname === '${PASSTHROUGH_SCOPE}passthrough' || url.pathname === '${PASSTHROUGH_SCOPE}passthrough-aes') {
    const aes = url.pathname.endsWith('-aes');
    event.respondWith(
      fetch(url.searchParams.get('url'), { cache: 'no-store' }).then((response) =>
        new Response(aes ? oneAesPass(response.body) : response.body, {
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
