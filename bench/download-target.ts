/**
 * bench:download in QA mode (--target https://host --link TOKEN[#KEYS]): the same measurements
 * against an existing deployment, through the recipient's download page (/download/{token}), its
 * real proxy and storage. Nothing is seeded and no plaintext is known, so what is verified is what
 * can be: every download completes (AES-GCM authenticates every record: a changed byte fails it),
 * has the size the link announces, a ZIP's entries read back with their CRC-32 and sizes, and the
 * single file's SHA-256 equals its ZIP entry's (two paths, one plaintext). The SHA-256s are reported
 * so QA can compare them with the files they uploaded.
 *
 * The transport reference cannot be the pass-through service worker here (it would have to be
 * served by the deployment): it is the page fetching the ciphertext itself and discarding it
 * (network + proxy + storage, no service worker, no decryption, no disk).
 */
import { statSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { hashZipEntries } from '../tests/support/zip.ts';
import { directSpec, writeCeilingSpec } from './download-direct.ts';
import { median } from './median.ts';
import {
  measureDecryptLimits,
  networkCeiling,
  runRounds,
  summarize,
  timedDownload,
  type PhaseSpec,
  type BenchContext,
  type MeasuredRun,
} from './download-phases.ts';
import { sha256OfRange } from './download-verify.ts';
import { fetchTargetJson, guardTestingNames, QaTargetError, type QaTarget } from './qa-target.ts';

interface LinkStatus {
  readonly requires_password: boolean;
  readonly files: ReadonlyArray<{ id: number; original_filename: string; file_size: number }>;
}

/** Opens the recipient page (keys in the fragment, or the password), ready to download. */
async function openLinkPage(page: Page, target: QaTarget, status: LinkStatus): Promise<void> {
  const hide = (text: string) => (target.fragment ? text.split(target.fragment).join('<keys>') : text);
  try {
    await page.goto(`${target.origin}/download/${target.token}${target.fragment ? `#${target.fragment}` : ''}`);
  } catch (error) {
    // Playwright's message repeats the URL: the keys in its fragment must not reach the log.
    throw new QaTargetError('UNREACHABLE', hide(`opening the download page failed: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (status.requires_password) {
    await expect(page.getByText('This download is password protected.')).toBeVisible({ timeout: 30_000 });
    await page.getByLabel('Password').fill(target.password!);
    await page.getByRole('button', { name: 'Unlock Files' }).click();
  }
  await expect(page.getByText('Files ready for download:')).toBeVisible({ timeout: 30_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

export async function runTarget(bench: BenchContext, target: QaTarget): Promise<MeasuredRun> {
  const status = await fetchTargetJson<LinkStatus>(target.origin, `/api/download/${target.token}/status`);
  guardTestingNames(`the download link on ${target.origin}`, status.files.map((file) => file.original_filename), target.force);
  if (status.requires_password && !target.password) throw new QaTargetError('USAGE', 'This link is password protected: set BENCH_LINK_PASSWORD=... in the environment.');
  if (!status.requires_password && !target.fragment) throw new QaTargetError('USAGE', "This link has no password, so its keys are in the link: pass --link 'TOKEN#KEYS' (the part after '#', quoted).");
  const files = [...status.files].sort((a, b) => b.file_size - a.file_size);
  const largest = files[0]!;
  const totalBytes = files.reduce((sum, file) => sum + file.file_size, 0);
  console.log(`QA target ${target.origin}: ${files.length} file(s), ${(totalBytes / 1e9).toFixed(2)} GB; the largest, ${largest.original_filename}, ${(largest.file_size / 1e9).toFixed(2)} GB`);

  const { page, memory, repeat } = await bench.openBrowser();
  try {
    await openLinkPage(page, target, status);
    const limits = await measureDecryptLimits(page);
    bench.printLimits(limits);
    const list = page.getByRole('list', { name: 'Shared files' });
    const fileButton = list.getByRole('button', { name: `Download ${largest.original_filename}`, exact: true });
    let fileSha256: string | undefined;
    const specs: PhaseSpec[] = [
      networkCeiling(page, memory, `/api/download/${target.token}/file/${largest.id}`, largest.file_size),
      {
        name: `one file, ${(largest.file_size / 1e9).toFixed(2)} GB`,
        kind: 'file',
        plainBytes: largest.file_size,
        run: () => timedDownload(page, memory, () => fileButton.click()),
        verify: async (run) => {
          const size = statSync(run.savedPath!).size;
          if (size !== largest.file_size) throw new Error(`${largest.original_filename}: saved ${size} bytes, the link announces ${largest.file_size}`);
          const sha256 = await sha256OfRange(run.savedPath!);
          if (fileSha256 !== undefined && sha256 !== fileSha256) throw new Error(`${largest.original_filename}: two downloads of the same file differ`);
          fileSha256 = sha256;
          return { name: largest.original_filename, bytes: size, sha256 };
        },
      },
      directSpec(page, memory, { name: largest.original_filename, size: largest.file_size, button: fileButton }),
      writeCeilingSpec(page, memory, largest.file_size),
    ];
    if (files.length > 1) {
      specs.push({
        name: `ZIP of the link's ${files.length} files, ${(totalBytes / 1e9).toFixed(2)} GB`,
        kind: 'zip',
        plainBytes: totalBytes,
        run: () => timedDownload(page, memory, () => page.getByRole('button', { name: 'Download All as ZIP' }).click()),
        verify: async (run) => {
          const entries = await hashZipEntries(run.savedPath!);
          const sizes = (list: number[]) => [...list].sort((a, b) => a - b).join(',');
          if (sizes(entries.map((entry) => entry.size)) !== sizes(files.map((file) => file.file_size))) {
            throw new Error(`ZIP: ${entries.length} entries whose sizes differ from the link's ${files.length} files`);
          }
          const same = entries.find((entry) => entry.name.split('/').pop() === largest.original_filename.split('/').pop());
          if (same && fileSha256 !== undefined && same.sha256 !== fileSha256) throw new Error(`ZIP entry ${same.name}: SHA-256 differs from the same file downloaded alone`);
          return entries.map((entry) => ({ name: entry.name, bytes: entry.size, sha256: entry.sha256 }));
        },
      });
    }
    const { phases, ceiling } = summarize(await runRounds(page, memory, specs, repeat), limits.sequentialDecryptMBps);
    const direct = phases.find((phase) => phase.kind === 'direct')?.saved as { sha256?: string } | undefined;
    if (direct?.sha256 !== undefined && fileSha256 !== undefined && direct.sha256 !== fileSha256) throw new Error('direct to disk: SHA-256 differs from the same file through the download manager');
    const ceilingRuns = ceiling!.runs.map((run) => largest.file_size / 1e6 / run.seconds);
    return { limits, ceiling: { ceilingMBps: Math.round(median(ceilingRuns)), ceilingRunsMBps: ceilingRuns.map(Math.round), ceilingKind: 'page fetch of the ciphertext, discarded (network + proxy + storage)' }, phases };
  } finally {
    await bench.closeBrowser();
  }
}
