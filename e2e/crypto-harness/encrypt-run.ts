// Harness operations over the real pool: encrypt the picked files (consuming the ciphertext streams
// as an upload would), decrypt a picked ciphertext file (through the decrypting stream that users'
// downloads run in the service worker), and read arbitrary ciphertext ranges.
import { createSHA256, type IHasher } from 'hash-wasm';
import { plainLengthOf } from '../../crypto/index.ts';
import { decryptLikeADownload } from '../../workers/download-service/testing/decryptLikeADownload.ts';
import type { CryptoPool, EncryptionSession } from '../../workers/index.ts';
import type { DecryptRunResult, EncryptedFileResult, EncryptRunOptions, EncryptRunResult, RangeResult } from './harness-types.ts';
import { ciphertextStream } from '../../workers/testing/sessionCiphertext.ts';

function pickedFiles(): File[] {
  const input = document.getElementById('files') as HTMLInputElement;
  return [...(input.files ?? [])];
}

async function drain(stream: ReadableStream<Uint8Array>, onChunk?: (chunk: Uint8Array) => void): Promise<number> {
  const reader = stream.getReader();
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return total;
    total += value.byteLength;
    onChunk?.(value);
  }
}

async function exportKey(pool: CryptoPool, session: EncryptionSession): Promise<string> {
  const fragment = await pool.formatLinkFragment([{ fileId: 'f', key: session.key }]);
  return fragment.slice('f:'.length);
}

async function encryptOne(pool: CryptoPool, file: File, options: EncryptRunOptions): Promise<EncryptedFileResult> {
  const session = await pool.openEncryption(file, { hashPlacement: options.hashPlacement ?? 'auto' });
  try {
    let ciphertextHasher: IHasher | undefined;
    if (options.hashCiphertext) {
      ciphertextHasher = await createSHA256();
      ciphertextHasher.init();
    }
    let roundTripSha256: string | undefined;
    if (options.roundTrip) {
      // Hash each ciphertext piece as it passes, then decrypt it as a download does and hash the
      // plaintext: no tee(), so nothing queues up in memory.
      const observed = ciphertextStream(session).pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            ciphertextHasher?.update(chunk);
            controller.enqueue(chunk);
          },
        }),
      );
      const plainHasher = await createSHA256();
      plainHasher.init();
      await drain(await decryptLikeADownload(pool, session.key, session.iv, file.size, observed), (chunk) => plainHasher.update(chunk));
      roundTripSha256 = plainHasher.digest('hex');
    } else {
      const length = await drain(ciphertextStream(session), ciphertextHasher ? (chunk) => ciphertextHasher.update(chunk) : undefined);
      if (length !== session.encryptedLength) throw new Error(`stream gave ${length} bytes, expected ${session.encryptedLength}`);
    }
    const sha256 = await session.sha256();
    return {
      name: file.name,
      size: file.size,
      encryptedLength: session.encryptedLength,
      sha256,
      iv: session.iv,
      ...(options.exportKeys ? { key: await exportKey(pool, session) } : {}),
      ...(ciphertextHasher ? { ciphertextSha256: ciphertextHasher.digest('hex') } : {}),
      ...(roundTripSha256 ? { roundTripSha256 } : {}),
    };
  } finally {
    await session.close();
    await pool.releaseKey(session.key);
  }
}

export async function encryptPickedFiles(pool: CryptoPool, options: EncryptRunOptions): Promise<EncryptRunResult> {
  const files = pickedFiles();
  const started = performance.now();
  const results: EncryptedFileResult[] = new Array(files.length);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const index = next++;
      results[index] = await encryptOne(pool, files[index]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.atOnce ?? files.length, files.length) }, lane));
  return { seconds: (performance.now() - started) / 1000, plainBytes: files.reduce((sum, f) => sum + f.size, 0), files: results };
}

/** `plainSize` is what the file record would say; by default the size the ciphertext's length implies. */
export async function decryptPickedFile(pool: CryptoPool, rawKey: string, iv: string, hashPlaintext: boolean, plainSize?: number): Promise<DecryptRunResult> {
  const [file] = pickedFiles();
  if (!file) throw new Error('no file picked');
  const keys = await pool.parseLinkFragment(`f:${rawKey}`);
  const key = keys.get('f')!;
  const hasher = hashPlaintext ? await createSHA256() : undefined;
  hasher?.init();
  const started = performance.now();
  try {
    const plaintext = await decryptLikeADownload(pool, key, iv, plainSize ?? plainLengthOf(file.size), file.stream());
    const plainBytes = await drain(plaintext, hasher ? (chunk) => hasher.update(chunk) : undefined);
    return { seconds: (performance.now() - started) / 1000, plainBytes, ...(hasher ? { plaintextSha256: hasher.digest('hex') } : {}) };
  } finally {
    await pool.releaseKey(key);
  }
}

/** Ciphertext ranges in the order given (as a resuming upload asks for them), hashed. */
export async function readPickedRanges(pool: CryptoPool, ranges: readonly [number, number][]): Promise<{ key: string; iv: string; ranges: RangeResult[] }> {
  const [file] = pickedFiles();
  if (!file) throw new Error('no file picked');
  const session = await pool.openEncryption(file);
  try {
    const out: RangeResult[] = [];
    for (const [start, end] of ranges) {
      const hasher = await createSHA256();
      hasher.init();
      for (const chunk of await session.readChunks(start, end)) hasher.update(chunk);
      out.push({ start, end, sha256: hasher.digest('hex') });
    }
    return { key: await exportKey(pool, session), iv: session.iv, ranges: out };
  } finally {
    await session.close();
    await pool.releaseKey(session.key);
  }
}
