// The limits, measured in a worker of the same browser: AES-256-GCM per call (WebCrypto), SHA-256
// (hash-wasm, incremental), one-shot crypto.subtle.digest for whole small files, and reading a File.
// Each operation runs alone so the caller can attribute the browser's CPU time to it.
import { expose } from 'comlink';
import { createSHA256 } from 'hash-wasm';
import type { RateSample, SmallFileDigestRow } from './harness-types.ts';

const MB = 1e6;

async function aes(mode: 'encrypt' | 'decrypt', callBytes: number, totalBytes: number): Promise<RateSample> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const plain = new Uint8Array(callBytes);
  crypto.getRandomValues(plain.subarray(0, Math.min(callBytes, 65536)));
  const iv = new Uint8Array(12);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain); // also the warm-up
  const calls = Math.max(8, Math.round(totalBytes / callBytes));
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    if (mode === 'encrypt') await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain);
    else await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
  }
  return { bytes: calls * callBytes, seconds: (performance.now() - started) / 1000 };
}

async function sha(updateBytes: number, totalBytes: number): Promise<RateSample> {
  const hasher = await createSHA256();
  const data = new Uint8Array(updateBytes);
  const updates = Math.max(4, Math.round(totalBytes / updateBytes));
  hasher.init();
  hasher.update(data);
  hasher.init();
  const started = performance.now();
  for (let i = 0; i < updates; i++) hasher.update(data);
  hasher.digest('hex');
  return { bytes: updates * updateBytes, seconds: (performance.now() - started) / 1000 };
}

async function smallFileDigest(bytes: number): Promise<SmallFileDigestRow> {
  const data = new Uint8Array(bytes);
  const rounds = Math.max(3, Math.round((64 * 1024 * 1024) / bytes));
  const hasher = await createSHA256();
  await crypto.subtle.digest('SHA-256', data);
  let started = performance.now();
  for (let i = 0; i < rounds; i++) await crypto.subtle.digest('SHA-256', data);
  const oneShotMBps = (rounds * bytes) / MB / ((performance.now() - started) / 1000);
  started = performance.now();
  for (let i = 0; i < rounds; i++) {
    hasher.init();
    hasher.update(data);
    hasher.digest('hex');
  }
  const hashWasmMBps = (rounds * bytes) / MB / ((performance.now() - started) / 1000);
  return { bytes, oneShotMBps, hashWasmMBps };
}

/** Reads a File the way the pool does (Blob.stream(), default reader), discarding the bytes: the cost of reading alone. */
async function readThrough(file: Blob): Promise<RateSample> {
  const started = performance.now();
  const reader = file.stream().getReader();
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

const api = {
  aes,
  sha,
  readThrough,
  async smallFileDigests(): Promise<SmallFileDigestRow[]> {
    const rows = [];
    for (const kib of [64, 1024, 4096, 8192, 32768]) rows.push(await smallFileDigest(kib * 1024));
    return rows;
  },
};

export type LimitsWorkerApi = typeof api;
expose(api);
