// `npm run fetch -- '<download-link-url#keys>' <output dir>`: decrypts a download link's files to
// disk in this process, streaming, with the checks and report lines of `npm run recover`. A
// password link asks for its password (or --password / --password-stdin). Exit status: 0 every
// file written, 1 some not (each named), 2 usage error or an unusable link or output directory,
// 3 wrong password, 130 interrupted (docs/operations.md, "Command-line upload and fetch").
import path from 'node:path';
import { readPasswordLine } from '../server/cli-password.ts';
import { runFetch, type FetchInvocation } from './fetch/fetch-run.ts';
import { CliUsageError } from './shared/errors.ts';
import { parseDownloadLink } from './shared/link-url.ts';
import { runCommand } from './shared/run-command.ts';
import { parseCommandLine } from '../server/cli-args.ts';

const USAGE = `Usage: npm run fetch -- [--password-stdin | --password <password>] [--force] [--insecure-http] '<download-link-url>' <output dir>

Downloads the link's files and decrypts them into <output dir> in this process; the server only
ever sends ciphertext. Quote the link: the keys after its # are part of it. For a password link the
password is asked for (hidden), read from standard input with --password-stdin, or given with
--password (visible to other users of this machine). Existing files are not replaced unless
--force is given. A plain http:// link is taken only to this machine (localhost, 127.0.0.0/8,
[::1]) unless --insecure-http is given: its password and keys would cross the network unencrypted.

Exit status: 0 every file written, 1 some files not (each is named), 2 usage error or an unusable
link or output directory, 3 wrong password, 130 interrupted.`;

async function parseInvocation(argv: string[]): Promise<FetchInvocation> {
  const parsed = parseCommandLine(argv, {
    password: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    'insecure-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const { values, positionals } = parsed;
  if (values.help) throw new CliUsageError('');
  const [url, outputDir, ...extra] = positionals;
  if (url === undefined || outputDir === undefined) throw new CliUsageError('Missing the download link and the output directory.');
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}" (quote the link: its # part holds the keys).`);
  if (values.password !== undefined && values['password-stdin']) throw new CliUsageError('Give the password once: --password or --password-stdin.');
  return {
    link: parseDownloadLink(url, { insecureHttp: values['insecure-http'] === true }),
    outputDir: path.resolve(outputDir),
    password: values['password-stdin'] ? await readPasswordLine(process.stdin) : values.password,
    force: values.force === true,
  };
}

runCommand(async (signal) => runFetch(await parseInvocation(process.argv.slice(2)), signal), {
  usage: USAGE,
  interrupted: 'Interrupted: the file being written was removed; files already fetched stay.',
  refused: (error) => `Wrong password for this link: ${error.message} [${error.code}]. Nothing was fetched.`,
});
