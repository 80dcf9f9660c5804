// One run of `npm run fetch`: the link's status, its keys (fragment or password), then each file
// streamed from the server through recover's decrypt-to-disk (server/recovery): every record's tag,
// the order and the final flag, the size the link states, a temporary file renamed into place only
// when all of it checked out. Lines as `npm run recover` writes them; a file that fails is named
// and skipped, the others are still fetched.
import { mkdir, stat } from 'node:fs/promises';

import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { linkStatusResponse, type SharedFile } from '../../contract/download-links.ts';
import { OfflineCryptoError, strictBase64 } from '../../server/crypto/index.ts';
import {
  decryptToDisk,
  errnoCode,
  FileRecoveryError,
  fileFailureReason,
  formatBytes,
  megabytesPerSecond,
  printablePath,
  ProgressLine,
  safeSegments,
} from '../../server/recovery/index.ts';
import { ApiSession, errorOf } from '../shared/api-session.ts';
import { ApiRequestError, CliUsageError, EXIT, LinkUnusableError } from '../shared/errors.ts';
import type { LinkAddress } from '../shared/link-url.ts';
import { Prompts } from '../shared/prompts.ts';
import { withRetries } from '../shared/retry.ts';
import { keysFromFragment, keysWithPassword, pinOfFragment } from './link-keys.ts';

export interface FetchInvocation {
  link: LinkAddress;
  outputDir: string;
  password?: string;
  force: boolean;
}

/** Output names: the link's names made safe; a name already taken gets " (2)", " (3)", ... before its extension. */
function outputNames(files: readonly SharedFile[]): Map<number, string> {
  const taken = new Set<string>();
  const out = new Map<number, string>();
  for (const file of files) {
    const dot = file.original_filename.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [file.original_filename.slice(0, dot), file.original_filename.slice(dot)] : [file.original_filename, ''];
    let name = file.original_filename;
    for (let n = 2; taken.has(name.normalize('NFC').toLowerCase()); n++) name = `${stem} (${n})${extension}`;
    taken.add(name.normalize('NFC').toLowerCase());
    out.set(file.id, name);
  }
  return out;
}

async function checkOutputDir(outputDir: string): Promise<void> {
  try {
    if (!(await stat(outputDir)).isDirectory()) throw new CliUsageError(`${outputDir} exists and is not a directory.`);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error instanceof CliUsageError ? error : new CliUsageError(`Cannot use ${outputDir} (${errnoCode(error) ?? 'error'}).`);
  }
}

function unusableLink(error: unknown): never {
  if (error instanceof ApiRequestError && (error.code === 'LINK_NOT_FOUND' || error.code === 'LINK_EXPIRED')) {
    throw new LinkUnusableError(error.code, error.detail);
  }
  throw error;
}

export async function runFetch(invocation: FetchInvocation, signal: AbortSignal): Promise<number> {
  const { link, outputDir } = invocation;
  const session = new ApiSession(link.origin);
  const status = await withRetries(() => session.json(linkStatusResponse, { method: 'GET', path: `/api/download/${link.token}/status`, signal }), { signal }).catch(unusableLink);
  await checkOutputDir(outputDir);

  let keys: Map<string, Buffer | OfflineCryptoError>;
  if (status.requires_password) {
    const pin = pinOfFragment(link.fragment);
    if (pin === null) console.log('Note: this link uses an older password protection (no pin in its address); ask the sender for a new link if you can.');
    const prompts = new Prompts();
    const password = invocation.password ?? (await prompts.password('Download link password: '));
    prompts.close();
    keys = await keysWithPassword(session, link.token, status.kdf_params, pin, password, signal);
  } else {
    keys = keysFromFragment(link.fragment);
  }
  try {
    await mkdir(outputDir, { recursive: true });
  } catch (error) {
    throw new CliUsageError(`Cannot create ${outputDir} (${errnoCode(error) ?? 'error'}).`);
  }

  const names = outputNames(status.files);
  const count = status.files.length;
  console.log(`Fetching ${count} file${count === 1 ? '' : 's'} into ${outputDir}`);
  const progress = new ProgressLine(process.stderr);
  const startedAt = performance.now();
  let fetched = 0;
  let bytes = 0;
  for (const file of status.files) {
    signal.throwIfAborted();
    const name = names.get(file.id)!;
    const shown = printablePath(name);
    try {
      const key = keys.get(String(file.id));
      if (key === undefined) throw new FileRecoveryError('ENTRY_INVALID', 'the link holds no key for this file (the link was cut short?)');
      if (key instanceof OfflineCryptoError) throw key;
      safeSegments('.', name);
      progress.start(name, file.file_size);
      await decryptToDisk(
        key,
        strictBase64(file.encryption_iv, 'iv'),
        { source: `file ${file.id} of the link`, describedBy: 'the link', directories: [], name, size: file.file_size, sha256: null },
        async () => {
          const response = await withRetries(async () => {
            const answer = await session.send({ method: 'GET', path: `/api/download/${link.token}/file/${file.id}`, signal, timeoutMs: null });
            if (!answer.ok || answer.body === null) throw await errorOf(answer);
            return answer;
          }, { signal });
          const length = Number(response.headers.get('content-length'));
          return { stream: Readable.fromWeb(response.body! as NodeReadableStream), bytes: Number.isSafeInteger(length) ? length : null };
        },
        { outputDir, force: invocation.force, signal, onProgress: (plain) => progress.update(plain) },
      );
      progress.finish();
      fetched++;
      bytes += file.file_size;
      console.log(`fetched ${shown} (${formatBytes(file.file_size)})`);
    } catch (error) {
      progress.finish();
      if (signal.aborted) throw signal.reason;
      const reason = error instanceof ApiRequestError ? `the server refused it: ${error.detail} [${error.code}]` : fileFailureReason(error);
      console.error(`FAILED ${shown}: ${reason}`);
    }
  }
  const seconds = (performance.now() - startedAt) / 1000;
  console.log(
    `Fetched ${fetched} of ${count} files: ${formatBytes(bytes)} (${bytes} bytes) in ${seconds.toFixed(1)} s, ${megabytesPerSecond(bytes, seconds * 1000).toFixed(0)} MB/s.`,
  );
  return fetched === count ? EXIT.ok : EXIT.someFailed;
}

