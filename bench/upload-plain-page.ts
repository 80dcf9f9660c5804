// Runs in the benchmark's browser tab (bundled by esbuild and injected into the upload page's
// origin), for the two references the encrypted upload is compared with:
//
// - benchPlainUpload: the same tus transport as the page (tusUpload.ts: same chunk size, same
//   read-ahead, XMLHttpRequest) sending the file's bytes without encryption, padded to the
//   encrypted length the server insists on: the encrypted upload minus the crypto. Its bodies are
//   slices of the picked file, read from disk by the browser, as the encrypted upload's bodies are
//   files of its spool (workers/ciphertext-spool.ts).
// - benchCeilingUpload: the transport ceiling: the same number of bytes sent by a bare
//   XMLHttpRequest to the server's discard route (BENCH_DISCARD_ROUTE, server/routes/bench/),
//   one TUS_CHUNK_BYTES body at a time, the same slices as benchPlainUpload's. What the browser, the connection and the server's
//   socket can do with no protocol and nothing stored.
//
// Each reports its end by setting the tab's title ("bench:done <ms>" or "bench:failed <why>"), which
// the benchmark reads from the DevTools HTTP endpoint (/json/list) without attaching to the tab:
// an attached automation copies every request body.
import { sendWithTus, TUS_CHUNK_BYTES } from '../src/features/upload/transport/tusUpload.ts';
import { completeUploads } from '../src/features/upload/transport/multipartBatch.ts';
import { sendXhr } from '../src/features/upload/transport/xhrRequest.ts';
import { encryptedLength } from '../crypto/index.ts';

declare global {
  interface Window {
    benchPlainUpload(linkToken: string, inputId: string): void;
    benchCeilingUpload(discardUrl: string, inputId: string): void;
  }
}

function pickedFile(inputId: string): File {
  return (document.getElementById(inputId) as HTMLInputElement).files![0]!;
}

/** Bytes [start, end) of the file followed by zeros up to `total` (the encrypted length), without copying. */
function paddedSlice(file: File, total: number, start: number, end: number): Blob {
  if (end <= file.size) return file.slice(start, end);
  const zeros = new Blob([new Uint8Array(Math.min(end - start, total - file.size))]);
  return new Blob([file.slice(Math.min(start, file.size), file.size), zeros.slice(0, end - Math.max(start, file.size))]);
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
  // Bodies read from disk by the browser, as the encrypted upload's spool files are.
  const range = { encryptedLength: cipherBytes, readBody: async (start: number, end: number) => paddedSlice(file, cipherBytes, start, end) };
  const startedAt = performance.now();
  reportEnd(
    sendWithTus({
      linkToken,
      range,
      metadata: { filename: `plain-${file.name}`, relativePath: '.', encryptedKey: btoa('k'.repeat(256)), iv: btoa('i'.repeat(12)), plainSize: file.size, keyEpoch: null },
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
  async function sendAll(): Promise<void> {
    for (let start = 0; start < total; start += TUS_CHUNK_BYTES) {
      const end = Math.min(total, start + TUS_CHUNK_BYTES);
      const body = paddedSlice(file, total, start, end);
      const response = await sendXhr({ method: 'POST', url: discardUrl, body, headers: { 'content-type': 'application/octet-stream' }, signal });
      if (response.status !== 200) throw new Error(`discard route answered ${response.status}: ${response.text.slice(0, 200)}`);
    }
  }
  reportEnd(sendAll(), performance.now());
};
