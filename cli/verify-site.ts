// `npm run verify-site -- https://host`: does a server serve the same app as a local build of the
// same version? Reads dist/build-digests.json (written by `npm run build`), fetches every listed
// file from the server, hashes it and names each file that differs or is missing. Exit status: 0
// every file identical, 1 some differ or are missing, 2 usage error or no usable local list
// (docs/operations.md, "Checking the code a server serves"; what a match proves: docs/security.md).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_DIGESTS_FILE, parseBuildDigests, type BuildDigests } from '../contract/build-digests.ts';
import { parseCommandLine } from '../server/cli-args.ts';
import { CliUsageError, EXIT } from './shared/errors.ts';
import { runCommand } from './shared/run-command.ts';
import { compareSite, describeComparison, describeServerList } from './verify-site/compare-site.ts';
import { parseSiteAddress } from './verify-site/site-address.ts';

const USAGE = `Usage: npm run verify-site -- [--dist <dir>] [--insecure-http] <https://host>

Compares what the server at <https://host> serves with the local build in <dir> (default: dist,
made by \`npm run build\` from the same version): every file listed in <dir>/${BUILD_DIGESTS_FILE} is
fetched and its SHA-256 compared. Each differing or missing file is named. Plain http is refused
except for this machine (loopback) unless --insecure-http is given.

Exit status: 0 every file identical, 1 some differ or are missing, 2 usage error or no usable
local list.`;

async function readLocalDigests(dir: string): Promise<BuildDigests> {
  const file = path.join(dir, BUILD_DIGESTS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new CliUsageError(`No ${file}: run \`npm run build\` first (from the same version as the server).`);
  }
  try {
    return parseBuildDigests(JSON.parse(text));
  } catch (error) {
    throw new CliUsageError(`${file} is not a usable list: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function run(signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandLine(process.argv.slice(2), {
    dist: { type: 'string', default: 'dist' },
    'insecure-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) throw new CliUsageError('');
  const [address, ...extra] = positionals;
  if (address === undefined) throw new CliUsageError('Missing the server address.');
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
  const site = parseSiteAddress(address, { insecureHttp: values['insecure-http'] === true });
  const digests = await readLocalDigests(path.resolve(values.dist ?? 'dist'));
  console.log(`Comparing ${site.href} with the local build ${digests.version} (${digests.files.length} files, build digest ${digests.buildDigest})`);
  const comparison = await compareSite(site, digests, { signal });
  for (const line of describeComparison(site, digests, comparison)) console.log(line);
  console.log(await describeServerList(site, digests, { signal }));
  return comparison.different.length === 0 && comparison.missing.length === 0 ? EXIT.ok : EXIT.someFailed;
}

runCommand(run, {
  usage: USAGE,
  interrupted: 'Interrupted: nothing was compared to the end.',
  refused: (error) => `Error: ${error.message} [${error.code}]`,
});
