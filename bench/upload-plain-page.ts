// Runs in the benchmark's browser tab (bundled by esbuild and injected into the upload page's
// origin): the same tus transport as the page (tusUpload.ts: same chunk size, same read-ahead,
// XMLHttpRequest) sending the file's bytes without encryption, padded to the encrypted length the
// server insists on. This is the network + server limit the encrypted upload is compared with.
import { sendWithTus } from '../src/features/upload/transport/tusUpload.ts';
import { completeUploads } from '../src/features/upload/transport/multipartBatch.ts';
import { encryptedLength } from '../src/crypto/record-format.ts';

declare global {
  interface Window {
    benchPlainUpload(linkToken: string, inputId: string): void;
  }
}

window.benchPlainUpload = (linkToken, inputId) => {
  const input = document.getElementById(inputId) as HTMLInputElement;
  const file = input.files![0]!;
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
  void sendWithTus({
    linkToken,
    range,
    metadata: { filename: `plain-${file.name}`, relativePath: '.', encryptedKey: btoa('k'.repeat(256)), iv: btoa('i'.repeat(12)), plainSize: file.size },
    signal,
    onProgress: () => undefined,
  }).then((sent) => completeUploads(linkToken, [{ upload_id: sent.uploadId, file_hash: '0'.repeat(64) }], { signal }));
};
