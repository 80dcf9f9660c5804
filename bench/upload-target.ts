// QA mode of `npm run bench:upload`: the same phases against an existing deployment (staging,
// production) through its real proxy and storage, instead of a server started here:
//
//   npm run bench:upload -- --target https://files.example.com --link TOKEN [--repeat N] [--small N] [--size=5g] [--force]
//
// - The link must be made for testing (bench/qa-target.ts): its folder's title starts with "bench",
//   unless --force. Every run uploads into that folder; what it stored stays there (the benchmark
//   has no admin account on the deployment): delete the folder's files from the admin screen after.
// - A link password comes from BENCH_LINK_PASSWORD; a link with e-mail verification is refused (a
//   benchmark cannot read the uploader's mailbox): make a test link without it.
// - An upload run ends when the page shows the spec's success message (the local mode takes the
//   server's upload_time of the record instead; here only the page is there to ask). A page that
//   shows a failure ends the benchmark with that message.
// - The transport ceiling needs the deployment's discard route (BENCH_DISCARD_ROUTE=1, meant for
//   staging): probed first; without it the ceiling and its ratio are left out, and said so.
// - Memory and CPU are the browser's only: the server is somewhere else.
import { cpus, loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import type { UploadLinkStatus } from '../contract/upload.ts';
import { fetchTargetJson, guardTestingNames, QaTargetError, type QaTarget } from './qa-target.ts';
import { endReportedByPage, measurePhase, printPhase, uploadPhases, type PhaseResult, type PhaseSpec, type UploadSite } from './upload-phases.ts';

export interface TargetInputs {
  big: string;
  small: { dir: string; bytes: number; count: number };
  huge: string | null;
  plainScript: string;
  repeat: number;
  phases: ReadonlySet<string>;
}

export interface TargetReport {
  mode: 'target';
  origin: string;
  date: string;
  cores: number;
  repeat: number;
  loadAverage: { before: number[]; after: number[] };
  phases: PhaseResult[];
  transport: Record<string, number | string | null>;
  smallFiles?: { count: number; filesPerSecond: number; target: number };
}

/** Whether the deployment serves the benchmark's discard route (its status; 404 when it does not). */
async function discardRouteOf(origin: string): Promise<string | null> {
  const url = `${origin}/api/bench/discard`;
  // A POST without the CSRF pair is refused with 403 by a route that exists, and 404 by one that does not.
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(0) }).catch(() => null);
  return response !== null && response.status !== 404 ? url : null;
}

function siteFor(target: QaTarget): UploadSite {
  return {
    origin: target.origin,
    serverPid: null,
    async openRun() {
      return {
        linkToken: target.token,
        async awaitEnd(_end, _files, _startedAt, browser) {
          return endReportedByPage(browser);
        },
        async finish() {},
      };
    },
  };
}

/** Passes the link's password gate in the page, when the link has one. */
function throughGate(target: QaTarget, status: UploadLinkStatus, prepare: PhaseSpec['prepare']): PhaseSpec['prepare'] {
  if (!status.requires_password) return prepare;
  return async (page: Page, linkToken: string) => {
    const gate = page.getByRole('form', { name: 'Link password' });
    await gate.getByLabel('Link password').fill(target.password!);
    await gate.getByRole('button', { name: 'Continue' }).click();
    await gate.waitFor({ state: 'hidden' });
    await prepare(page, linkToken);
  };
}

export async function runUploadTarget(target: QaTarget, inputs: TargetInputs): Promise<TargetReport> {
  const status = await fetchTargetJson<UploadLinkStatus>(target.origin, `/api/upload/${encodeURIComponent(target.token)}/status`);
  guardTestingNames('the upload folder', [status.title], target.force);
  if (status.requires_email) {
    throw new QaTargetError('USAGE', 'This upload link needs e-mail verification, which a benchmark cannot pass: make a test link without it.');
  }
  if (status.requires_password && target.password === undefined) {
    throw new QaTargetError('USAGE', 'This upload link has a password: set BENCH_LINK_PASSWORD (not on the command line: ps shows argv).');
  }
  const discardUrl = await discardRouteOf(target.origin);
  const loadBefore = loadavg();
  console.log(
    `QA mode: ${target.origin}, folder "${status.title}", Chromium here, ${cpus().length} cores, ${inputs.repeat} runs per phase (median)` +
      (discardUrl ? '' : '\n  no discard route on the deployment (BENCH_DISCARD_ROUTE): the transport ceiling is left out'),
  );
  const phases = uploadPhases({ ...inputs, discardUrl, end: 'page', label: (name) => name });
  const site = siteFor(target);
  const gated = (spec: PhaseSpec): PhaseSpec => ({ ...spec, prepare: throughGate(target, status, spec.prepare) });
  const results: Partial<Record<'ceiling' | 'plain' | 'encrypted' | 'many' | 'huge', PhaseResult>> = {};
  if (phases.ceiling && inputs.phases.has('ceiling')) results.ceiling = await measurePhase(site, gated(phases.ceiling));
  if (inputs.phases.has('plain')) results.plain = await measurePhase(site, gated(phases.plain));
  if (inputs.phases.has('encrypted')) results.encrypted = await measurePhase(site, gated(phases.encrypted));
  if (inputs.phases.has('many')) results.many = await measurePhase(site, gated(phases.many));
  if (phases.huge) results.huge = await measurePhase(site, gated(phases.huge));

  const all = [results.ceiling, results.plain, results.encrypted, results.many, results.huge].filter((p) => p !== undefined);
  console.log('\nResults (median of runs):');
  for (const p of all) printPhase(p);
  const ratio = (a: PhaseResult | undefined, b: PhaseResult | undefined) => (a && b ? Number((a.medianMBps / b.medianMBps).toFixed(2)) : null);
  const transport = {
    ceilingMBps: results.ceiling?.medianMBps ?? null,
    plainMBps: results.plain?.medianMBps ?? null,
    encryptedMBps: results.encrypted?.medianMBps ?? null,
    plainToCeilingRatio: ratio(results.plain, results.ceiling),
    encryptedToPlainRatio: ratio(results.encrypted, results.plain),
    encryptedToCeilingRatio: ratio(results.encrypted, results.ceiling),
    ceilingNote: discardUrl ? 'bare XHR to the deployment\'s discard route' : 'no discard route on the deployment (BENCH_DISCARD_ROUTE=1 enables it)',
  };
  console.log(
    `\n  transport: ceiling ${transport.ceilingMBps ?? '-'} MB/s; plain/ceiling ${transport.plainToCeilingRatio ?? '-'}; encrypted/plain ${transport.encryptedToPlainRatio ?? '-'}`,
  );
  return {
    mode: 'target',
    origin: target.origin,
    date: new Date().toISOString(),
    cores: cpus().length,
    repeat: inputs.repeat,
    loadAverage: { before: loadBefore.map((n) => Number(n.toFixed(2))), after: loadavg().map((n) => Number(n.toFixed(2))) },
    phases: all,
    transport,
    ...(results.many ? { smallFiles: { count: inputs.small.count, filesPerSecond: results.many.medianFilesPerSecond, target: 500 } } : {}),
  };
}
