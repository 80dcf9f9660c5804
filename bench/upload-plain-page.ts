// Runs in the benchmark's browser tab (bundled by esbuild and injected into the upload page's
// origin), for the two references the encrypted upload is compared with:
//
// - benchPlainUpload: the same tus transport as the page (tusUpload.ts: same chunk size, same
//   read-ahead, XMLHttpRequest) sending the file's bytes without encryption, padded to the
//   encrypted length the server insists on: the encrypted upload minus the crypto.
// - benchCeilingUpload: the transport ceiling: the same number of bytes sent by a bare
//   XMLHttpRequest to the server's discard route (BENCH_DISCARD_ROUTE, server/routes/bench/),
//   one TUS_CHUNK_BYTES body at a time, each a slice of the picked File (a Blob the browser reads
//   from disk itself: no copy in the page). What the browser, the connection and the server's
//   socket can do with no protocol and nothing stored.
//
// Each reports its end by setting the tab's title ("bench:done <ms>" or "bench:failed <why>"), which
// the benchmark reads from the DevTools HTTP endpoint (/json/list) without attaching to the tab:
// an attached automation copies every request body.
import { sendWithTus, TUS_CHUNK_BYTES } from '../src/features/upload/transport/tusUpload.ts';
import { completeUploads } from '../src/features/upload/transport/multipartBatch.ts';
import { sendXhr } from '../src/features/upload/transport/xhrRequest.ts';
import { encryptedLength } from '../src/crypto/record-format.ts';

declare global {
  interface Window {
    benchPlainUpload(linkToken: string, inputId: string): void;
    benchCeilingUpload(discardUrl: string, inputId: string): void;
  }
}

function pickedFile(inputId: string): File {
  return (document.getElementById(inputId) as HTMLInputElement).files![0]!;
}

function reportEnd(work: Promise<unknown>, startedAt: number): void {
  work.then(
    () => {
      document.title = `bench:done ${Math.round(performance.now() - startedAt)}`;
    },
    (error: unknown) => {
      document.title = `bench:failed ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    },
  );
}

window.benchPlainUpload = (linkToken, inputId) => {
  const file = pickedFile(inputId);
  const cipherBytes = encryptedLength(file.size);
  const signal = new AbortController().signal;
  const range = {
    encryptedLength: cipherBytes,
    async readChunks(start: number, end: number): Promise<Uint8Array[]> {
      const out = new Uint8Array(end - start);
      if (start < file.size) out.set(new Uint8Array(await file.slice(start, Math.min(end, file.size)).arrayBuffer()));
      return [out];
    },
  };
  const startedAt = performance.now();
  reportEnd(
    sendWithTus({
      linkToken,
      range,
      metadata: { filename: `plain-${file.name}`, relativePath: '.', encryptedKey: btoa('k'.repeat(256)), iv: btoa('i'.repeat(12)), plainSize: file.size },
      signal,
      onProgress: () => undefined,
    }).then((sent) => completeUploads(linkToken, [{ upload_id: sent.uploadId, file_hash: '0'.repeat(64) }], { signal })),
    startedAt,
  );
};

window.benchCeilingUpload = (discardUrl, inputId) => {
  const file = pickedFile(inputId);
  const total = encryptedLength(file.size);
  const signal = new AbortController().signal;
  const padding = new Blob([new Uint8Array(Math.min(TUS_CHUNK_BYTES, total - file.size))]);
  async function sendAll(): Promise<void> {
    for (let start = 0; start < total; start += TUS_CHUNK_BYTES) {
      const end = Math.min(total, start + TUS_CHUNK_BYTES);
      // The file's bytes, and past its end zeros up to the encrypted length (as benchPlainUpload).
      const body = end <= file.size ? file.slice(start, end) : new Blob([file.slice(start, file.size), padding.slice(0, end - Math.max(start, file.size))]);
      const response = await sendXhr({ method: 'POST', url: discardUrl, body, headers: { 'content-type': 'application/octet-stream' }, signal });
      if (response.status !== 200) throw new Error(`discard route answered ${response.status}: ${response.text.slice(0, 200)}`);
    }
  }
  reportEnd(sendAll(), performance.now());
};
