// How the running app knows its own build digest. The digest cannot be written into the code it
// covers, and it cannot be fetched when asked either: by then the server may be serving another
// build. So each service worker fetches dist/build-digests.json once, while it installs, and keeps
// it in a cache of its own (named after its own code and precache manifest, so two builds never
// share one). When
// asked, it recomputes the build digest from that list, hashes every listed file it serves from
// its precache and compares each with the list, so what it shows is the digest of the bytes this
// installed copy runs, not a field read from a file. What this cannot prove (the worker's own
// script, which no page or worker can read back) is in docs/security.md, "The code the server serves".
import { BUILD_DIGESTS_FILE, BuildDigestsError, buildDigestText, parseBuildDigests } from '../../contract/build-digests.ts';
import type { BuildIdentity } from './protocol.ts';

export const BUILD_DIGESTS_URL = `/${BUILD_DIGESTS_FILE}`;
const CACHE_PREFIX = 'sealdrop-build-digests-';

/** SHA-256 of bytes as lower-case hex. */
export type Sha256Hex = (bytes: ArrayBuffer) => Promise<string>;

export const webCryptoSha256: Sha256Hex = async (bytes) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** FNV-1a, 32 bits: a cache name per build, not a security check. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The cache holding this build's list: named after the worker's code key and the precache manifest Workbox injected. */
export function buildDigestsCacheName(codeKey: string, precacheManifest: unknown): string {
  return `${CACHE_PREFIX}${codeKey}-${fnv1a(JSON.stringify(precacheManifest))}`;
}

export function isBuildDigestsCache(name: string): boolean {
  return name.startsWith(CACHE_PREFIX);
}

/**
 * The list's text as the server serves it now, checked to be a well-formed list whose build digest
 * matches its files; called while installing, so a malformed list fails the install.
 */
export async function fetchBuildDigestsText(fetchFn: typeof fetch, sha256: Sha256Hex = webCryptoSha256): Promise<string> {
  const response = await fetchFn(BUILD_DIGESTS_URL, { cache: 'no-store', credentials: 'omit' });
  if (!response.ok) throw new BuildDigestsError('MALFORMED_BUILD_DIGESTS', `${BUILD_DIGESTS_URL} answered HTTP ${response.status}.`);
  const text = await response.text();
  await checkedDigests(text, sha256);
  return text;
}

async function checkedDigests(text: string, sha256: Sha256Hex) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BuildDigestsError('MALFORMED_BUILD_DIGESTS', `${BUILD_DIGESTS_URL} is not JSON.`);
  }
  const digests = parseBuildDigests(json);
  const recomputed = await sha256(new TextEncoder().encode(buildDigestText(digests.files)).buffer as ArrayBuffer);
  if (recomputed !== digests.buildDigest) throw new BuildDigestsError('BUILD_DIGEST_MISMATCH', 'The build digest does not match the list of files.');
  return { ...digests, buildDigest: recomputed };
}

/**
 * This build's identity: the stored list's digest (recomputed) and each listed file this worker
 * serves from its precache (`cached(path)`, undefined when it does not) hashed and compared.
 */
export async function describeBuild(storedText: string, cached: (path: string) => Promise<Response | undefined>, sha256: Sha256Hex = webCryptoSha256): Promise<BuildIdentity> {
  const digests = await checkedDigests(storedText, sha256);
  let checkedFiles = 0;
  const mismatchedFiles: string[] = [];
  for (const file of digests.files) {
    const response = await cached(`/${file.path}`);
    if (!response) continue;
    checkedFiles += 1;
    if ((await sha256(await response.arrayBuffer())) !== file.sha256) mismatchedFiles.push(file.path);
  }
  return { version: digests.version, buildDigest: digests.buildDigest, listedFiles: digests.files.length, checkedFiles, mismatchedFiles };
}
