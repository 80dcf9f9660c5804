// The benchmark's bare service worker (bench/download-passthrough-sw.ts), run in node with a
// stand-in `self` and `fetch`: its two routes are references every download ratio is taken
// against, so they must hand on every byte (the plain one unchanged, the AES one the same length).
import { describe, expect, it } from 'vitest';
import { PASSTHROUGH_SCOPE, PASSTHROUGH_SW_SOURCE } from '../../bench/download-passthrough-sw.ts';

type FetchListener = (event: { request: Request; respondWith(response: Promise<Response> | Response): void }) => void;

/** The worker's fetch listener, with `fetch` answering `body` cut into `pieces` of the given sizes. */
function loadWorker(body: Uint8Array, pieceSizes: number[]): FetchListener {
  const listeners = new Map<string, FetchListener>();
  const self = { addEventListener: (type: string, listener: FetchListener) => listeners.set(type, listener), skipWaiting() {}, clients: { claim: async () => undefined } };
  const fakeFetch = async () => {
    let at = 0;
    let piece = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.byteLength) return controller.close();
        const size = pieceSizes[piece++ % pieceSizes.length]!;
        controller.enqueue(body.slice(at, at + size));
        at += size;
      },
    });
    return new Response(stream, { headers: { 'content-length': String(body.byteLength) } });
  };
  new Function('self', 'fetch', PASSTHROUGH_SW_SOURCE)(self, fakeFetch);
  return listeners.get('fetch')!;
}

async function download(listener: FetchListener, route: string): Promise<{ bytes: Uint8Array; headers: Headers }> {
  let answer: Promise<Response> | Response | undefined;
  listener({ request: new Request(`http://localhost${PASSTHROUGH_SCOPE}${route}?url=/ciphertext`), respondWith: (response) => (answer = response) });
  const response = await answer!;
  return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

const body = new Uint8Array(3 * 256 * 1024 + 1000).map((_, index) => (index * 7) % 251);

describe('the benchmark pass-through service worker', () => {
  it('passes the body through unchanged as an attachment of the same length', async () => {
    const { bytes, headers } = await download(loadWorker(body, [65536]), 'passthrough');
    expect(Buffer.from(bytes).equals(Buffer.from(body))).toBe(true);
    expect(headers.get('content-length')).toBe(String(body.byteLength));
    expect(headers.get('content-disposition')).toContain('attachment');
  });

  it('runs every byte through AES-GCM and keeps the length, whatever sizes the network hands it', async () => {
    // Pieces that straddle the 256 KiB records in every way: smaller, larger than a record, odd.
    for (const pieces of [[65536], [300_000], [1, 99_999, 262_144, 7], [body.byteLength]]) {
      const { bytes } = await download(loadWorker(body, pieces), 'passthrough-aes');
      expect(bytes.byteLength).toBe(body.byteLength);
      // Encrypted: no 256 KiB record comes out as it went in.
      for (let start = 0; start < body.byteLength; start += 256 * 1024) {
        const end = Math.min(start + 4096, body.byteLength);
        expect(Buffer.from(bytes.subarray(start, end)).equals(Buffer.from(body.subarray(start, end)))).toBe(false);
      }
    }
  });
});
