/**
 * QA mode of the benchmarks: measure an existing deployment (staging, production, through its real
 * proxy and storage) instead of a server the benchmark starts itself. Shared by bench:download and
 * bench:upload: the options, and the guard that refuses links not made for testing.
 *
 * The rule (QA_TARGET_RULE): a benchmark moves GiBs through the link it is given, again and again.
 * Pointed at a real customer's link by mistake, a download benchmark would pull their data out of
 * production storage repeatedly (and decrypt it on the QA machine); an upload benchmark would add
 * GiBs of noise to a real folder. So a link is measured only when it is visibly made for testing:
 *   - download link: every file in it is named "bench…" (case-insensitive, e.g. bench-1gib.bin),
 *     which the recipient status route shows without a password;
 *   - upload link: the folder title starts with "bench" (the upload status route shows it); what
 *     the runs upload stays in that folder (no public route can delete it: an admin empties it);
 * `--force` overrides the rule (say why in the QA note).
 */

export const TESTING_PREFIX = 'bench';

export const QA_TARGET_RULE =
  `A link is measured only when it is made for testing: for a download link every file name starts ` +
  `with "${TESTING_PREFIX}" (e.g. ${TESTING_PREFIX}-1gib.bin); for an upload link the folder's title starts with ` +
  `"${TESTING_PREFIX}" (what the runs upload stays in that folder). --force measures any link: the benchmark then downloads ` +
  `or uploads several GiB through it, repeatedly.`;

export const QA_TARGET_HELP = `QA mode (measure an existing deployment instead of starting a server):
  --target https://host     the deployment's origin (https; http only for a loopback host)
  --link TOKEN[#KEYS]       the link token; for a download link without a password, the link's
                            fragment (the keys) after '#'; a whole link URL is accepted too
                            (quote it in the shell: '#' starts a comment)
  BENCH_LINK_PASSWORD=...   the link password, from the environment (not argv: ps shows argv)
  --force                   measure a link that is not made for testing (see the rule below)
${QA_TARGET_RULE}`;

export type QaTargetErrorCode = 'USAGE' | 'NOT_FOR_TESTING' | 'UNREACHABLE';

export class QaTargetError extends Error {
  override readonly name = 'QaTargetError';
  constructor(
    readonly code: QaTargetErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface QaTarget {
  /** https://host[:port], no trailing slash. */
  readonly origin: string;
  readonly token: string;
  /** What followed '#' in the link (download links: the keys), '' if nothing. Never sent to a server. */
  readonly fragment: string;
  readonly password: string | undefined;
  readonly force: boolean;
}

function optionValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  const arg = argv[at]!;
  if (arg.includes('=')) return arg.slice(arg.indexOf('=') + 1);
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new QaTargetError('USAGE', `--${name} needs a value.\n\n${QA_TARGET_HELP}`);
  return value;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const TOKEN = /^[A-Za-z0-9_-]{8,200}$/;

function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new QaTargetError('USAGE', `--target ${value} is not a URL: give the deployment's origin, e.g. --target https://files.example.com`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new QaTargetError('USAGE', `--target must be https (http only for a loopback host), got ${url.protocol}//${url.host}`);
  }
  return url.origin;
}

/** The QA target named on the command line, or undefined when there is no --target (local mode). */
export function parseQaTarget(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, linkPath = '/download/'): QaTarget | undefined {
  const target = optionValue(argv, 'target');
  const linkArg = optionValue(argv, 'link');
  if (target === undefined) {
    if (linkArg !== undefined) throw new QaTargetError('USAGE', `--link needs --target.\n\n${QA_TARGET_HELP}`);
    return undefined;
  }
  const origin = parseOrigin(target);
  if (linkArg === undefined) throw new QaTargetError('USAGE', `--target needs --link TOKEN.\n\n${QA_TARGET_HELP}`);
  const hashAt = linkArg.indexOf('#');
  const beforeHash = hashAt >= 0 ? linkArg.slice(0, hashAt) : linkArg;
  const fragment = hashAt >= 0 ? linkArg.slice(hashAt + 1) : '';
  let token = beforeHash;
  if (/^https?:\/\//.test(beforeHash)) {
    const url = new URL(beforeHash);
    if (url.origin !== origin) throw new QaTargetError('USAGE', `--link ${url.origin} is not on --target ${origin}`);
    if (!url.pathname.startsWith(linkPath)) throw new QaTargetError('USAGE', `--link: expected a ${linkPath}TOKEN link, got ${url.pathname}`);
    token = url.pathname.slice(linkPath.length).replace(/\/$/, '');
  }
  if (!TOKEN.test(token)) throw new QaTargetError('USAGE', `--link: '${token}' does not look like a link token (letters, digits, '-' and '_')`);
  return { origin, token, fragment, password: env.BENCH_LINK_PASSWORD || undefined, force: argv.includes('--force') };
}

/** The last path segment starts with the testing prefix ('raw/bench-a.bin' counts, 'bench/a.bin' does not). */
export function isTestingName(name: string): boolean {
  const base = name.split('/').pop() ?? '';
  return base.toLowerCase().startsWith(TESTING_PREFIX);
}

/** Throws NOT_FOR_TESTING unless every name is a testing name or --force was given. */
export function guardTestingNames(what: string, names: readonly string[], force: boolean): void {
  const others = names.filter((name) => !isTestingName(name));
  if (names.length > 0 && others.length === 0) return;
  if (force) {
    console.warn(`--force: measuring ${what} although it is not made for testing (${others.length || 'no'} other names).`);
    return;
  }
  const shown = others.slice(0, 5).map((name) => `'${name}'`).join(', ');
  throw new QaTargetError(
    'NOT_FOR_TESTING',
    names.length === 0
      ? `Refusing to measure ${what}: it has nothing to measure. ${QA_TARGET_RULE}`
      : `Refusing to measure ${what}: ${others.length} of ${names.length} names do not start with "${TESTING_PREFIX}" (${shown}${others.length > 5 ? ', ...' : ''}). ` +
        `Make a link of test files only, or pass --force if this link really is for testing. ${QA_TARGET_RULE}`,
  );
}

/** GET a JSON route of the deployment, with what to check next when it fails. */
export async function fetchTargetJson<T>(origin: string, path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${origin}${path}`, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new QaTargetError('UNREACHABLE', `${origin} did not answer (${error instanceof Error ? error.message : String(error)}): check --target and the network.`);
  }
  const text = await response.text();
  if (!response.ok) throw new QaTargetError('UNREACHABLE', `GET ${path} answered ${response.status} ${text.slice(0, 200)}: check the link token and that it has not expired.`);
  return JSON.parse(text) as T;
}
