/**
 * The direct-to-disk phase of bench:download (src/features/downloads/direct): the app decrypts in
 * a dedicated worker and writes through the File System Access API's writable, no service worker
 * and no download manager in between. A headless browser cannot click a native save dialog, so only
 * the picker is replaced: `window.showSaveFilePicker` returns a handle of the origin-private file
 * system (navigator.storage.getDirectory()), whose writable is the real one (the same seam the
 * end-to-end tests use; the app has no switch for it).
 *
 * A run ends when the OPFS file is back under its picked name with its full size and no `.part`
 * entry is left: the app writes the picked file as `<name>.part` and renames it once its writable
 * committed (docs/download.md, "A file carries its real name only once complete"). The
 * file is then read back in the page in 8 MiB slices and hashed with hash-wasm's SHA-256 (its UMD
 * build evaluated in the page: DevTools evaluation is not subject to the page's CSP, which allows
 * WebAssembly), compared with the plaintext's (local runs) or reported (QA mode), and deleted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { PARTIAL_SUFFIX } from '../workers/download-service/direct/partialFile.ts';
import { PhaseSkipped, timedRun, type PhaseSpec } from './download-phases.ts';
import type { PeakMemory } from './process-tree.ts';

const GiB = 1024 ** 3;
const OPFS_PREFIX = 'bench-direct-';
const NOT_OFFERED = 'the app did not ask for a save picker: no direct-to-disk path in this build';

export interface DirectSpec {
  readonly name: string;
  readonly size: number;
  /** The plaintext's SHA-256 when known (local runs); QA mode only reports what it read back. */
  readonly sha256?: string;
  /** The page's download button for this file: with a save picker present, the app saves directly to disk. */
  readonly button: Locator;
}

/**
 * Installed in every page of the benchmark's browser before the app runs: without the pickers the
 * app takes the service-worker path (as in Firefox) for the file and ZIP phases, and offers no
 * save-choice dialog. The direct phase puts an OPFS-backed save picker back for its runs.
 */
export const HIDE_PICKERS = 'window.showSaveFilePicker = undefined; window.showDirectoryPicker = undefined;';

/** Replaces only the picker: every save dialog answers with a fresh OPFS file, named in window.__benchDirectName. */
const PICKER_OVERRIDE = `(() => {
  window.showSaveFilePicker = async () => {
    const root = await navigator.storage.getDirectory();
    const name = '${OPFS_PREFIX}' + Date.now() + '-' + Math.random().toString(36).slice(2) + '.bin';
    window.__benchDirectName = name;
    return root.getFileHandle(name, { create: true });
  };
  window.__benchDirectName = null;
})()`;

/**
 * Resolves once the file the last save picked is complete as the app leaves it: under its own name
 * with `size` bytes, and no `<name>.part` left beside it. The app writes the picked file as
 * `<name>.part` and renames it back only after its writable committed (the download worker's
 * partialFile.ts), so while the download runs the picked name does not exist: a lookup of it is
 * NotFoundError then, which is waited out, not failed on. Rejects if no save picker was asked for
 * within 15 s.
 */
function completeScript(size: number): string {
  return `(async () => {
    const asked = Date.now() + 15000;
    const fileOrNull = async (root, name) => {
      try {
        return await (await root.getFileHandle(name)).getFile();
      } catch (error) {
        if (error && error.name === 'NotFoundError') return null;
        throw error;
      }
    };
    for (;;) {
      if (!window.__benchDirectName && Date.now() > asked) throw new Error('${NOT_OFFERED}');
      const name = window.__benchDirectName;
      if (name) {
        const root = await navigator.storage.getDirectory();
        const file = await fileOrNull(root, name);
        if (file && file.size > ${size}) throw new Error('OPFS file grew past the expected size: ' + file.size);
        if (file && file.size === ${size} && (await fileOrNull(root, name + '${PARTIAL_SUFFIX}')) === null) return name;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })()`;
}

/**
 * The writable alone: a dedicated worker (as the app's) writes `size` bytes into a fresh OPFS file
 * through createWritable in 16 MiB writes, each copied into a block reused from one write to the
 * next (as the app's block gatherer fills its pooled blocks), commits it and removes it. No network,
 * no decryption: what this browser's writable can take on this machine, the reference the direct path's speed is honestly measured against.
 */
function writeCeilingScript(size: number): string {
  const worker = `onmessage = async () => {
    try {
      const root = await navigator.storage.getDirectory();
      const name = '${OPFS_PREFIX}ceiling-' + Date.now() + '.bin';
      const writable = await (await root.getFileHandle(name, { create: true })).createWritable({ keepExistingData: false });
      const block = 16 * 1024 * 1024;
      const source = new Uint8Array(block);
      for (let i = 0; i < block; i += 65536) crypto.getRandomValues(source.subarray(i, i + 65536));
      const reused = new Uint8Array(block);
      for (let at = 0; at < ${size}; at += block) {
        const piece = reused.subarray(0, Math.min(block, ${size} - at));
        piece.set(source.subarray(0, piece.byteLength));
        await writable.write(piece);
      }
      await writable.close();
      const written = (await (await root.getFileHandle(name)).getFile()).size;
      await root.removeEntry(name);
      postMessage({ written });
    } catch (error) {
      postMessage({ error: String(error) });
    }
  };`;
  return `new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' }));
    const worker = new Worker(url);
    worker.onmessage = (event) => {
      worker.terminate();
      URL.revokeObjectURL(url);
      if (event.data.error) reject(new Error('write ceiling: ' + event.data.error));
      else if (event.data.written !== ${size}) reject(new Error('write ceiling: ' + event.data.written + ' bytes written'));
      else resolve(null);
    };
    worker.postMessage(null);
  })`;
}

/**
 * The phase "the writable alone": the ceiling of the direct path on this machine (see
 * writeCeilingScript). Its figure goes into the JSON's transport block as directWriteCeilingMBps.
 */
export function writeCeilingSpec(page: Page, memory: PeakMemory, size: number): PhaseSpec {
  return {
    name: `ceiling: createWritable alone, ${+(size / GiB).toFixed(2)} GiB`,
    kind: 'write-ceiling',
    plainBytes: size,
    run: () => timedRun(page, memory, async () => page.evaluate(writeCeilingScript(size)) as Promise<void>, async () => null),
    verify: async () => undefined,
  };
}

/** SHA-256 of an OPFS file read back in slices, then the file is removed (with any stale bench files). */
function readBackScript(name: string): string {
  return `(async () => {
    const root = await navigator.storage.getDirectory();
    const file = await (await root.getFileHandle(${JSON.stringify(name)})).getFile();
    const hasher = await hashwasm.createSHA256();
    hasher.init();
    const slice = 8 * 1024 * 1024;
    for (let at = 0; at < file.size; at += slice) hasher.update(new Uint8Array(await file.slice(at, at + slice).arrayBuffer()));
    const sha256 = hasher.digest('hex');
    const size = file.size;
    for await (const entry of root.keys()) if (entry.startsWith('${OPFS_PREFIX}')) await root.removeEntry(entry);
    return { sha256, size };
  })()`;
}

const hashWasmLoaded = new WeakSet<Page>();

async function ensureHashWasm(page: Page): Promise<void> {
  if (hashWasmLoaded.has(page) && (await page.evaluate('typeof hashwasm !== "undefined"'))) return;
  const source = readFileSync(fileURLToPath(new URL('../node_modules/hash-wasm/dist/sha256.umd.min.js', import.meta.url)), 'utf8');
  await page.evaluate(source);
  hashWasmLoaded.add(page);
}

/**
 * The phase "direct to disk, one N GiB file": each run puts the OPFS picker in place, clicks the
 * file's download button, waits for the complete file, and hides the pickers again (the other
 * phases take the service-worker path). A build without the direct path is skipped (PhaseSkipped).
 */
export function directSpec(page: Page, memory: PeakMemory, spec: DirectSpec, prepare?: () => Promise<void>): PhaseSpec {
  return {
    name: `direct to disk, one file, ${+(spec.size / GiB).toFixed(2)} GiB`,
    kind: 'direct',
    plainBytes: spec.size,
    async prepare() {
      await prepare?.();
      await ensureHashWasm(page);
    },
    async run() {
      await page.evaluate(PICKER_OVERRIDE);
      try {
        return await timedRun(page, memory, () => spec.button.click(), async () => {
          await page.evaluate(completeScript(spec.size));
          return null;
        });
      } catch (error) {
        if (error instanceof Error && error.message.includes(NOT_OFFERED)) throw new PhaseSkipped(NOT_OFFERED);
        throw error;
      } finally {
        await page.evaluate(HIDE_PICKERS);
      }
    },
    async verify() {
      const name = (await page.evaluate('window.__benchDirectName')) as string;
      await ensureHashWasm(page);
      const read = (await page.evaluate(readBackScript(name))) as { sha256: string; size: number };
      if (read.size !== spec.size) throw new Error(`direct: ${spec.name}: ${read.size} bytes in OPFS, expected ${spec.size}`);
      if (spec.sha256 !== undefined && read.sha256 !== spec.sha256) throw new Error(`direct: ${spec.name}: SHA-256 of the OPFS file differs from the plaintext`);
      return { sha256: read.sha256, bytes: read.size, checkedAgainstPlaintext: spec.sha256 !== undefined };
    },
  };
}
