// `npm run fetch -- '<download-link-url#keys>' <output dir>`: decrypts a download link's files to
// disk in this process, streaming, with the checks and report lines of `npm run recover`. A
// password link asks for its password (or --password / --password-stdin). With `--team <server>
// --user <name> --folder <id> (--list | <output dir>)` a member of a team folder signs in and lists
// or fetches its files instead (cli/fetch/team-fetch-run.ts). Exit status: 0 every file written,
// 1 some not (each named), 2 usage error or an unusable link, folder or output directory, 3 wrong
// password or code, 130 interrupted (docs/operations.md, "Command-line upload and fetch").
import path from 'node:path';
import { readPasswordLine } from '../server/cli-password.ts';
import { runFetch, type FetchInvocation } from './fetch/fetch-run.ts';
import { CliUsageError } from './shared/errors.ts';
import { parseDownloadLink, parseServerUrl } from './shared/link-url.ts';
import { runTeamFetch, type TeamFetchInvocation } from './fetch/team-fetch-run.ts';
import { runCommand } from './shared/run-command.ts';
import { parseCommandLine } from '../server/cli-args.ts';

const USAGE = `Usage: npm run fetch -- [--password-stdin | --password <password>] [--force] [--insecure-http] '<download-link-url>' <output dir>
       npm run fetch -- --team <server url> --user <name> --folder <id> [--password-stdin | --password <password>] [--force] [--insecure-http] (--list | <output dir>)

Downloads the link's files and decrypts them into <output dir> in this process; the server only
ever sends ciphertext. Quote the link: the keys after its # are part of it. For a password link the
password is asked for (hidden), read from standard input with --password-stdin, or given with
--password (visible to other users of this machine). Existing files are not replaced unless
--force is given. A plain http:// link is taken only to this machine (localhost, 127.0.0.0/8,
[::1]) unless --insecure-http is given: its password and keys would cross the network unencrypted.

With --team, a member of a team folder signs in (the account's password is asked for, or read as
the first line of standard input; a two-factor code is asked next, or read as the next line),
checks the folder's signed member list as the app does, and lists its files (--list) or decrypts
every file it can open into <output dir>, in the folder's directories.

Exit status: 0 every file written, 1 some files not (each is named), 2 usage error or an unusable
link or output directory, 3 wrong password, 130 interrupted.`;

type Invocation = { kind: 'link'; invocation: FetchInvocation } | { kind: 'team'; invocation: TeamFetchInvocation };

async function parseInvocation(argv: string[]): Promise<Invocation> {
  const parsed = parseCommandLine(argv, {
    team: { type: 'string' },
    user: { type: 'string' },
    folder: { type: 'string' },
    list: { type: 'boolean', default: false },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    'insecure-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const { values, positionals } = parsed;
  if (values.help) throw new CliUsageError('');
  if (values.password !== undefined && values['password-stdin']) throw new CliUsageError('Give the password once: --password or --password-stdin.');
  if (values.team !== undefined) return { kind: 'team', invocation: teamInvocation(values, positionals) };
  if (values.user !== undefined || values.folder !== undefined || values.list) throw new CliUsageError('--user, --folder and --list go with --team <server url>.');
  const [url, outputDir, ...extra] = positionals;
  if (url === undefined || outputDir === undefined) throw new CliUsageError('Missing the download link and the output directory.');
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}" (quote the link: its # part holds the keys).`);
  return {
    kind: 'link',
    invocation: {
      link: parseDownloadLink(url, { insecureHttp: values['insecure-http'] === true }),
      outputDir: path.resolve(outputDir),
      password: values['password-stdin'] ? await readPasswordLine(process.stdin) : values.password,
      force: values.force === true,
    },
  };
}

/** --team: the server, the account, the folder and --list or one output directory (the password is asked for by the run: it may be followed by a code). */
function teamInvocation(
  values: { team?: string; user?: string; folder?: string; list?: boolean; password?: string; force?: boolean; 'insecure-http'?: boolean },
  positionals: string[],
): TeamFetchInvocation {
  if (values.user === undefined || values.user.trim() === '') throw new CliUsageError('--team needs --user <name>.');
  if (values.folder === undefined || !/^\d{1,10}$/.test(values.folder) || Number(values.folder) === 0) throw new CliUsageError('--team needs --folder <id> (the number in the folder page\'s address).');
  const [outputDir, ...extra] = positionals;
  if (values.list && outputDir !== undefined) throw new CliUsageError('Give --list or an output directory, not both.');
  if (!values.list && outputDir === undefined) throw new CliUsageError('Missing --list or the output directory.');
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
  return {
    origin: parseServerUrl(values.team!, { insecureHttp: values['insecure-http'] === true }),
    username: values.user.trim(),
    folderId: Number(values.folder),
    outputDir: outputDir === undefined ? null : path.resolve(outputDir),
    ...(values.password !== undefined ? { password: values.password } : {}),
    force: values.force === true,
  };
}

runCommand(
  async (signal) => {
    const parsed = await parseInvocation(process.argv.slice(2));
    return parsed.kind === 'team' ? runTeamFetch(parsed.invocation, signal) : runFetch(parsed.invocation, signal);
  },
  {
    usage: USAGE,
    interrupted: 'Interrupted: the file being written was removed; files already fetched stay.',
    refused: (error) => `Refused: ${error.message} [${error.code}]. Nothing was fetched.`,
  },
);
