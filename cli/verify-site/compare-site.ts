// Compares what a server serves with a local build: fetches every path of the local
// dist/build-digests.json from the server, hashes what comes back and names each file that differs
// or is missing. A few requests at a time; each has a time limit.
import { createHash } from 'node:crypto';
import { BUILD_DIGESTS_FILE, parseBuildDigests, type BuildDigests, type BuildFileDigest } from '../../contract/build-digests.ts';

export type FileVerdict =
  | { path: string; outcome: 'identical' }
  | { path: string; outcome: 'different'; expected: string; served: string }
  | { path: string; outcome: 'missing'; reason: string };

export interface SiteComparison {
  files: FileVerdict[];
  identical: number;
  different: FileVerdict[];
  missing: FileVerdict[];
}

export interface CompareOptions {
  fetchFn?: typeof fetch;
  concurrency?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The URL of a listed path under the site root, each segment percent-encoded. */
export function fileUrl(site: URL, path: string): URL {
  return new URL(path.split('/').map(encodeURIComponent).join('/'), site);
}

async function verdictFor(site: URL, file: BuildFileDigest, { fetchFn = fetch, timeoutMs = 30_000, signal }: CompareOptions): Promise<FileVerdict> {
  const limits = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  let response: Response;
  try {
    // A redirect is not the file: a server that sends this path elsewhere does not serve it.
    response = await fetchFn(fileUrl(site, file.path), { redirect: 'manual', signal: AbortSignal.any(limits), headers: { 'cache-control': 'no-cache' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { path: file.path, outcome: 'missing', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { path: file.path, outcome: 'missing', reason: `HTTP ${response.status}` };
  }
  const hash = createHash('sha256');
  try {
    if (response.body) for await (const chunk of response.body) hash.update(chunk);
  } catch (error) {
    if (signal?.aborted) throw error;
    return { path: file.path, outcome: 'missing', reason: `the answer broke off (${error instanceof Error ? error.message : String(error)})` };
  }
  const served = hash.digest('hex');
  return served === file.sha256 ? { path: file.path, outcome: 'identical' } : { path: file.path, outcome: 'different', expected: file.sha256, served };
}

export async function compareSite(site: URL, digests: BuildDigests, options: CompareOptions = {}): Promise<SiteComparison> {
  const files: FileVerdict[] = new Array(digests.files.length);
  let next = 0;
  async function worker() {
    while (next < digests.files.length) {
      const index = next++;
      files[index] = await verdictFor(site, digests.files[index]!, options);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return {
    files,
    identical: files.filter((file) => file.outcome === 'identical').length,
    different: files.filter((file) => file.outcome === 'different'),
    missing: files.filter((file) => file.outcome === 'missing'),
  };
}

/** The report's lines: one per differing or missing file, then the verdict. */
export function describeComparison(site: URL, digests: BuildDigests, comparison: SiteComparison): string[] {
  const lines: string[] = [];
  for (const file of comparison.files) {
    if (file.outcome === 'different') lines.push(`DIFFERENT ${file.path}: expected sha256 ${file.expected}, served ${file.served}`);
    if (file.outcome === 'missing') lines.push(`MISSING   ${file.path}: ${file.reason}`);
  }
  const total = digests.files.length;
  if (comparison.different.length === 0 && comparison.missing.length === 0) {
    lines.push(`All ${total} files identical: ${site.origin} served build ${digests.version} (build digest ${digests.buildDigest}) to this machine just now.`);
  } else {
    lines.push(
      `${total} files: ${comparison.identical} identical, ${comparison.different.length} different, ${comparison.missing.length} missing. ${site.origin} does not serve build ${digests.version} (build digest ${digests.buildDigest}).`,
    );
  }
  return lines;
}

/**
 * The line about the server's own list (not part of the comparison: a server can serve any list):
 * which version and build digest it claims, to tell "another version" from "altered files".
 */
export async function describeServerList(site: URL, local: BuildDigests, { fetchFn = fetch, timeoutMs = 30_000, signal }: CompareOptions = {}): Promise<string> {
  try {
    const limits = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    const response = await fetchFn(fileUrl(site, BUILD_DIGESTS_FILE), { redirect: 'manual', signal: AbortSignal.any(limits) });
    if (response.status !== 200) {
      await response.body?.cancel();
      return `The server's own ${BUILD_DIGESTS_FILE}: HTTP ${response.status}.`;
    }
    const served = parseBuildDigests(await response.json());
    const same = served.buildDigest === local.buildDigest ? 'the same as the local build' : 'not the local build';
    return `The server's own ${BUILD_DIGESTS_FILE} claims version ${served.version}, build digest ${served.buildDigest} (${same}; a claim, checked by the files above).`;
  } catch (error) {
    if (signal?.aborted) throw error;
    return `The server's own ${BUILD_DIGESTS_FILE} is not usable: ${error instanceof Error ? error.message : String(error)}`;
  }
}
