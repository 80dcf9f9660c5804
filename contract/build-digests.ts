// The release's list of its own files (dist/build-digests.json): every file of the build but this
// list, each with its SHA-256, and one build digest over the whole list. Written by the build
// (scripts/build-digests), read by `npm run verify-site` (cli/verify-site) and by the service
// worker, which shows the digest of the build it was installed with (docs/security.md, "The code
// the server serves").
//
// The build digest is the SHA-256 of the list in `sha256sum` format, sorted by path (one line per
// file: 64 hex digits, two spaces, the path, a newline), so anyone can recompute it without this
// code: cd dist && find . -type f ! -name build-digests.json | sed 's|^\./||' | LC_ALL=C sort |
// xargs sha256sum | sha256sum. Paths are ASCII (Vite's names), where C collation and JavaScript's
// code-unit order agree. The list leaves itself out: it cannot hold its own digest.
import { CodedError } from './coded-error.ts';

export const BUILD_DIGESTS_FILE = 'build-digests.json';
export const BUILD_DIGESTS_FORMAT = 1;

export interface BuildFileDigest {
  /** Relative to the site root, '/'-separated, no leading slash. */
  path: string;
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
}

export interface BuildDigests {
  format: typeof BUILD_DIGESTS_FORMAT;
  /** package.json's version of the build. */
  version: string;
  /** SHA-256 of buildDigestText(files). */
  buildDigest: string;
  /** Sorted by path. */
  files: BuildFileDigest[];
}

export type BuildDigestsErrorCode = 'MALFORMED_BUILD_DIGESTS' | 'BUILD_DIGEST_MISMATCH';

export class BuildDigestsError extends CodedError<BuildDigestsErrorCode> {}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const PATH_SEGMENT = /^[\x21-\x7e]+$/;

/** Relative, printable ASCII without spaces or backslashes, no empty, '.' or '..' segment: a listed path names a file under the site root. */
function isSitePath(path: string): boolean {
  if (path.length === 0 || path.length > 1000 || path.includes('\\')) return false;
  return path.split('/').every((segment) => PATH_SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

export function compareBuildPaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The text the build digest is the SHA-256 of: `sha256sum` lines sorted by path. */
export function buildDigestText(files: readonly BuildFileDigest[]): string {
  return [...files]
    .sort((a, b) => compareBuildPaths(a.path, b.path))
    .map((file) => `${file.sha256}  ${file.path}\n`)
    .join('');
}

function malformed(detail: string): BuildDigestsError {
  return new BuildDigestsError('MALFORMED_BUILD_DIGESTS', `The build's list of digests is malformed: ${detail}.`);
}

/** A parsed build-digests.json; throws BuildDigestsError (MALFORMED_BUILD_DIGESTS) for anything else. */
export function parseBuildDigests(value: unknown): BuildDigests {
  if (typeof value !== 'object' || value === null) throw malformed('not an object');
  const { format, version, buildDigest, files } = value as Record<string, unknown>;
  if (format !== BUILD_DIGESTS_FORMAT) throw malformed(`unknown format ${JSON.stringify(format)}`);
  if (typeof version !== 'string' || version.length === 0 || version.length > 100) throw malformed('no version');
  if (typeof buildDigest !== 'string' || !SHA256_HEX.test(buildDigest)) throw malformed('no build digest');
  if (!Array.isArray(files) || files.length === 0) throw malformed('no files');
  const seen = new Set<string>();
  const parsed = files.map((file: unknown) => {
    const { path, sha256 } = (typeof file === 'object' && file !== null ? file : {}) as Record<string, unknown>;
    if (typeof path !== 'string' || !isSitePath(path)) throw malformed(`bad path ${JSON.stringify(path)}`);
    if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) throw malformed(`bad digest for ${path}`);
    if (seen.has(path)) throw malformed(`${path} listed twice`);
    seen.add(path);
    return { path, sha256 };
  });
  return { format, version, buildDigest, files: parsed.sort((a, b) => compareBuildPaths(a.path, b.path)) };
}
