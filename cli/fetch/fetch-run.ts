// One run of `npm run fetch`: the link's status, its keys (fragment or password), then each file
// streamed from the server through recover's decrypt-to-disk (server/recovery): every record's tag,
// the order and the final flag, the size the link states, a temporary file renamed into place only
// when all of it checked out. Lines as `npm run recover` writes them; a file that fails is named
// and skipped, the others are still fetched.
import { mkdir, stat } from 'node:fs/promises';
import { linkStatusResponse, type SharedFile } from '../../contract/download-links.ts';
import { OfflineCryptoError, strictBase64 } from '../../server/crypto/index.ts';
import { errnoCode, FileRecoveryError, printablePath, safeSegments } from '../../server/recovery/index.ts';
import { ApiSession } from '../shared/api-session.ts';
import { ApiRequestError, CliUsageError, LinkUnusableError } from '../shared/errors.ts';
import type { LinkAddress } from '../shared/link-url.ts';
import { Prompts } from '../shared/prompts.ts';
import { withRetries } from '../shared/retry.ts';
import { fetchFiles, type FileToFetch } from './fetch-files.ts';
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
  const files = status.files.map((file): FileToFetch => {
    const name = names.get(file.id)!;
    return {
      shown: printablePath(name),
      size: file.file_size,
      path: `/api/download/${link.token}/file/${file.id}`,
      open: () => {
        const key = keys.get(String(file.id));
        if (key === undefined) throw new FileRecoveryError('ENTRY_INVALID', 'the link holds no key for this file (the link was cut short?)');
        if (key instanceof OfflineCryptoError) throw key;
        safeSegments('.', name);
        const expected = { source: `file ${file.id} of the link`, describedBy: 'the link', directories: [], name, size: file.file_size, sha256: null };
        return { key, iv: strictBase64(file.encryption_iv, 'iv'), expected };
      },
    };
  });
  return fetchFiles(session, files, { outputDir, force: invocation.force, signal });
}

