// `npm run upload -- <upload-link-url> <files or folders...>`: encrypts files for the folder's
// owner exactly as the upload page does (docs/format.md) and sends them to the upload link,
// through its password and e-mail gates; large files resumable across runs (run the same command
// again to continue). Exit status: 0 every file stored, 1 some failed (each named), 2 usage error
// or an unusable link or file, 3 a gate refused, 130 interrupted (docs/operations.md,
// "Command-line upload and fetch").
import { readPasswordLine } from '../server/cli-password.ts';
import { CliUsageError } from './shared/errors.ts';
import { parseUploadLink } from './shared/link-url.ts';
import { runCommand } from './shared/run-command.ts';
import { runUpload, type UploadInvocation } from './upload/upload-run.ts';
import { defaultStateDir } from './upload/upload-state.ts';
import { parseCommandLine } from '../server/cli-args.ts';

const USAGE = `Usage: npm run upload -- [options] <upload-link-url> <files or folders...>

Encrypts the files in this process for the folder's owner and sends them to the upload link. A
folder is sent with its name as the top directory and everything below it. Large files go in
resumable pieces: if the run stops (network, Ctrl-C, a crash), run the same command again and it
continues where it stopped; files an earlier run stored are not sent again.

Options:
  --password <password>     the link's password (visible to other users of this machine: prefer
                            --password-stdin, or type it when asked)
  --password-stdin          read the link's password from the first line of standard input
  --email <address>         your address, for a link with e-mail verification
  --code <123456>           the code mailed to you (without it, one is requested and asked for)
  --request-code            only have the code mailed, then stop (run again with --code)
  --json                    one JSON object per file on standard output, no progress bar
  --insecure-http           accept a plain http:// link to another machine (its password, codes
                            and files then cross the network unencrypted); loopback needs none
  --state-dir <dir>         where runs keep what they need to continue (default ${defaultStateDir()})
  --fresh                   forget what earlier runs kept for this link and send everything again
  --chunk-mib <n>           MiB per resumable request (default 64; smaller on a slow, flaky line)

Exit status: 0 every file stored, 1 some files failed (each is named), 2 usage error or an unusable
link, file or folder, 3 refused by a gate (password, e-mail, code), 130 interrupted.`;

async function parseInvocation(argv: string[]): Promise<UploadInvocation> {
  const parsed = parseCommandLine(argv, {
    password: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    email: { type: 'string' },
    code: { type: 'string' },
    'request-code': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'state-dir': { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'chunk-mib': { type: 'string' },
    'insecure-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const { values, positionals } = parsed;
  if (values.help) throw new CliUsageError('');
  const [url, ...paths] = positionals;
  if (url === undefined) throw new CliUsageError('Missing the upload link.');
  if (paths.length === 0 && !values['request-code']) throw new CliUsageError('Missing the files or folders to upload.');
  if (values.password !== undefined && values['password-stdin']) throw new CliUsageError('Give the password once: --password or --password-stdin.');
  if (values.code !== undefined && !/^\d{6}$/.test(values.code)) throw new CliUsageError('--code must be the 6 digits from the e-mail.');
  const chunkMib = values['chunk-mib'] === undefined ? undefined : Number(values['chunk-mib']);
  if (chunkMib !== undefined && !(Number.isInteger(chunkMib) && chunkMib >= 1 && chunkMib <= 1024)) throw new CliUsageError('--chunk-mib must be a whole number from 1 to 1024.');
  return {
    link: parseUploadLink(url, { insecureHttp: values['insecure-http'] === true }),
    paths,
    gates: {
      password: values['password-stdin'] ? await readPasswordLine(process.stdin) : values.password,
      email: values.email,
      code: values.code,
      requestCodeOnly: values['request-code'] === true,
    },
    json: values.json === true,
    stateDir: values['state-dir'] ?? defaultStateDir(),
    fresh: values.fresh === true,
    chunkBytes: chunkMib === undefined ? undefined : chunkMib * 1024 * 1024,
  };
}

runCommand(async (signal) => runUpload(await parseInvocation(process.argv.slice(2)), signal), {
  usage: USAGE,
  interrupted: 'Interrupted: run the same command again to continue.',
  refused: (error) => `Refused: ${error.message} [${error.code}]`,
});
