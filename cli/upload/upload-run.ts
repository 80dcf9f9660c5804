// One run of `npm run upload`: open the link (status, gates, the owner's public key), list the
// files, skip the ones an earlier run stored, send small files in batches and large ones over tus
// (two at a time), report each, and answer the exit status.
import { cipherLength } from '../../server/crypto/index.ts';
import { ApiSession } from '../shared/api-session.ts';
import { EXIT } from '../shared/errors.ts';
import type { LinkAddress } from '../shared/link-url.ts';
import { ProgressBar } from '../shared/progress-bar.ts';
import { Prompts } from '../shared/prompts.ts';
import { sendLargeFile } from './large-files.ts';
import { linkStatus, recipientKey, passGates, type GateAnswers } from './link-gates.ts';
import type { FileOutcome } from './outcome.ts';
import { UploadReport } from './report.ts';
import { SMALL_FILE_MAX_BYTES, sendSmallFiles } from './small-files.ts';
import { listSourceFiles, type SourceFile } from './source-files.ts';
import { UploadState } from './upload-state.ts';

/** Large files sent at once (the upload page's LARGE_FILES_AT_ONCE). */
const LARGE_FILES_AT_ONCE = 2;

export interface UploadInvocation {
  link: LinkAddress;
  paths: string[];
  gates: GateAnswers;
  json: boolean;
  stateDir: string;
  /** Forget what earlier runs kept for this link (send everything again, new keys). */
  fresh: boolean;
  /** Bytes per tus PATCH (tests use smaller chunks). */
  chunkBytes?: number;
}

export async function runUpload(invocation: UploadInvocation, signal: AbortSignal): Promise<number> {
  const startedAt = performance.now();
  const { link } = invocation;
  const session = new ApiSession(link.origin);
  const prompts = new Prompts();
  const listing = await listSourceFiles(invocation.paths);
  const status = await linkStatus(session, link.token, signal);
  const earlyReport = new UploadReport(invocation.json, null);
  const passed = await passGates(session, link.token, status, invocation.gates, prompts, (line) => earlyReport.note(line), signal);
  prompts.close();
  if (!passed) return EXIT.ok;
  const { publicKeySpki, keyEpoch } = await recipientKey(session, link.token, signal);

  const forgetAfterMs = invocation.fresh ? -1 : status.upload_abandon_hours * 3_600_000;
  const state = await UploadState.open(invocation.stateDir, link.origin, link.token, forgetAfterMs);
  try {
    const toSend: SourceFile[] = [];
    const already: Array<[SourceFile, FileOutcome]> = [];
    for (const file of listing.files) {
      const entry = state.get(file.identity);
      if (entry?.kind === 'stored') already.push([file, { status: 'skipped', fileId: entry.fileId }]);
      else toSend.push(file);
    }
    const totalBytes = toSend.reduce((sum, file) => sum + cipherLength(file.size), 0);
    const bar = new ProgressBar(process.stderr, `Uploading ${toSend.length} file${toSend.length === 1 ? '' : 's'} to "${status.title}"`, totalBytes, !invocation.json);
    const report = new UploadReport(invocation.json, bar);
    for (const path of listing.skipped) report.note(`skipped ${path}: not a regular file`);
    for (const [file, outcome] of already) report.file(file, outcome);

    let doneBytes = 0;
    const largeSent = new Map<SourceFile, number>();
    const progress = () => bar.update(doneBytes + [...largeSent.values()].reduce((a, b) => a + b, 0));
    const small = toSend.filter((file) => file.size <= SMALL_FILE_MAX_BYTES);
    const large = toSend.filter((file) => file.size > SMALL_FILE_MAX_BYTES);

    const smallDone = sendSmallFiles(
      {
        session,
        linkToken: link.token,
        publicKeySpki,
        keyEpoch,
        state,
        signal,
        onOutcome: (file, outcome, cipherBytes) => {
          doneBytes += cipherBytes;
          progress();
          report.file(file, outcome);
        },
        onNote: (note) => bar.setNote(note),
      },
      small,
    );
    const queue = [...large];
    const largeContext = {
      session,
      linkToken: link.token,
      publicKeySpki,
      keyEpoch,
      state,
      signal,
      chunkBytes: invocation.chunkBytes,
      onSent: (file: SourceFile, bytes: number) => {
        largeSent.set(file, bytes);
        progress();
      },
      onNote: (_file: SourceFile, note: string) => bar.setNote(note),
    };
    const lanes = Array.from({ length: Math.min(LARGE_FILES_AT_ONCE, queue.length) }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const outcome = await sendLargeFile(largeContext, file);
        largeSent.delete(file);
        doneBytes += cipherLength(file.size);
        progress();
        report.file(file, outcome);
      }
    });
    await Promise.all([smallDone, ...lanes]);
    bar.finish();
    report.summary((performance.now() - startedAt) / 1000, totalBytes);
    return report.totals.failed > 0 ? EXIT.someFailed : EXIT.ok;
  } finally {
    await state.close();
  }
}
