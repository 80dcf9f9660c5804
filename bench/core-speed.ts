/**
 * How fast one core of this machine is at the work that sets the upload's limits: SHA-256 by
 * hash-wasm, the app's own hasher, run here in Node. Two machines that describe themselves alike
 * ("AMD EPYC, 2 cores, KVM") have differed two-fold in it, and with it CI's time and every
 * benchmark's absolute figures (docs/operations.md, "A slower machine of the same kind"), so CI
 * prints it beside the machine's kind. Node runs this WebAssembly somewhat faster than Chromium
 * does (docs/operations.md), so it compares machines, not the browser's limits; bench:crypto
 * measures those in the browser.
 */
import { createSHA256 } from 'hash-wasm';
import { median } from './median.ts';

const MiB = 1024 * 1024;
const INPUT_MiB = 16;
const TIMED_PASSES = 5;

/** MB/s of SHA-256 (hash-wasm) on one core: the median of five passes over 16 MiB, after one untimed pass. */
export async function coreSha256MBps(): Promise<number> {
  const hasher = await createSHA256();
  const input = new Uint8Array(INPUT_MiB * MiB).fill(0x5a);
  const pass = () => {
    hasher.init();
    hasher.update(input);
    hasher.digest('binary');
  };
  // Untimed: the engine compiles the WebAssembly with its optimising tier on first use.
  pass();
  const rates: number[] = [];
  for (let i = 0; i < TIMED_PASSES; i++) {
    const started = process.hrtime.bigint();
    pass();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates.push((INPUT_MiB * MiB) / 1e6 / seconds);
  }
  return Math.round(median(rates));
}

/** The words CI prints. */
export function describeCoreSpeed(sha256MBps: number): string {
  return `one core: SHA-256 (hash-wasm, Node) ${sha256MBps} MB/s`;
}
