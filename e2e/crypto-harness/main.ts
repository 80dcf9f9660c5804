// The crypto harness page: a real CryptoPool (production worker bundling) driven by
// e2e/crypto.spec.ts and bench/crypto.ts through window.cryptoHarness. Results are small JSON
// values; file bytes never pass through the automation channel.
import { wrap, type Remote } from 'comlink';
import { CryptoError } from '../../crypto/index.ts';
import { CryptoPool } from '../../workers/index.ts';
import { decryptPickedFile, encryptPickedFiles, readPickedRanges } from './encrypt-run.ts';
import type { CryptoHarness, HarnessError } from './harness-types.ts';
import type { LimitsWorkerApi } from './limits.worker.ts';
import { runVectors } from './vectors.ts';
import type { NodeVectors } from './vector-types.ts';

const pool = CryptoPool.create();
let limits: Remote<LimitsWorkerApi> | undefined;

/** One worker for all limits measurements, started once so its start-up is not measured. */
function limitsWorker(): Remote<LimitsWorkerApi> {
  limits ??= wrap<LimitsWorkerApi>(new Worker(new URL('./limits.worker.ts', import.meta.url), { type: 'module' }));
  return limits;
}

async function reported<T>(action: () => Promise<T>): Promise<T | HarnessError> {
  try {
    return await action();
  } catch (error) {
    return {
      error: {
        name: error instanceof Error ? error.name : typeof error,
        message: error instanceof Error ? error.message : String(error),
        isCryptoError: error instanceof CryptoError,
        ...(typeof (error as { code?: unknown })?.code === 'string' ? { code: (error as { code: string }).code } : {}),
      },
    };
  }
}

const harness: CryptoHarness = {
  async ready() {
    return { poolSize: pool.size };
  },
  encryptFiles: (options) => reported(() => encryptPickedFiles(pool, options)),
  decryptFile: (key, iv, options) => reported(() => decryptPickedFile(pool, key, iv, options.hashPlaintext, options.plainSize)),
  readRanges: (ranges) => reported(() => readPickedRanges(pool, ranges)),
  async measureLimit(measurement) {
    const worker = limitsWorker();
    if (measurement.kind === 'aes') return worker.aes(measurement.mode, measurement.callBytes, measurement.totalBytes);
    if (measurement.kind === 'sha') return worker.sha(measurement.updateBytes, measurement.totalBytes);
    const file = (document.getElementById('files') as HTMLInputElement).files?.[0];
    if (!file) throw new Error('no file picked');
    return worker.readThrough(file);
  },
  smallFileDigests: () => limitsWorker().smallFileDigests(),
  runVectors: (input) => runVectors(pool, input as NodeVectors),
};

declare global {
  interface Window {
    cryptoHarness: CryptoHarness;
  }
}

window.cryptoHarness = harness;
document.getElementById('status')!.textContent = `ready (${pool.size} workers)`;
