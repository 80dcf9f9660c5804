// Offline recovery: `npm run recover -- --backup <backup.json> <export> <output dir>` decrypts an
// export (docs/format.md "Exports") with the admin's private key backup and the password it was made
// under. No server, database or network; the private key lives only in this process's memory.
// Exit status: 0 all files recovered, 1 some not (each named on stderr), 2 usage error or an
// unreadable backup, export or output directory, or an unknown export format_version, 3 wrong
// password, 130 interrupted (docs/operations.md "Disaster recovery").
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliUsageError } from './cli-errors.ts';
import { readExistingPassword } from './cli-password.ts';
import { OfflineCryptoError } from './crypto/index.ts';
import { readKeyBackup, unlockKeyBackup } from './recovery/backup-file.ts';
import { errnoCode, ExportError } from './recovery/errors.ts';
import type { ExportReader } from './recovery/export-reader.ts';
import { exportKeys } from './recovery/file-keys.ts';
import { parseManifest } from './recovery/manifest.ts';
import { openExport } from './recovery/open-export.ts';
import { formatBytes, megabytesPerSecond, ProgressLine } from './recovery/progress.ts';
import { fileFailureReason, printablePath } from './recovery/reasons.ts';
import { recoverExport } from './recovery/recover-export.ts';
import { parseCommandLine } from './cli-args.ts';

const EXIT = { ok: 0, someFailed: 1, unusable: 2, wrongPassword: 3, interrupted: 130 } as const;

const USAGE = `Usage: npm run recover -- --backup <private-key-backup.json> [--password-stdin] [--force] <export> <output dir>

Decrypts an export (a ZIP file or a directory with manifest.json and files/) into <output dir>,
without the server. Asks for the password the backup file was made under (hidden), or reads one
line from standard input with --password-stdin. Existing files in <output dir> are not replaced
unless --force is given.

Exit status: 0 every file recovered, 1 some files not recovered (each is named), 2 usage error or
unreadable backup / export / output directory, 3 wrong password, 130 interrupted.`;

interface Invocation {
  backup: string;
  exportPath: string;
  outputDir: string;
  passwordStdin: boolean;
  force: boolean;
}

function parseInvocation(argv: string[]): Invocation {
  const parsed = parseCommandLine(argv, {
    backup: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (parsed.values.help) throw new CliUsageError('');
  const [exportPath, outputDir, ...extra] = parsed.positionals;
  if (parsed.values.backup === undefined) throw new CliUsageError('Missing --backup <private-key-backup.json>.');
  if (exportPath === undefined || outputDir === undefined) throw new CliUsageError('Missing the export and the output directory.');
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
  return {
    backup: parsed.values.backup,
    exportPath,
    outputDir: path.resolve(outputDir),
    passwordStdin: parsed.values['password-stdin'] === true,
    force: parsed.values.force === true,
  };
}

/** The output directory may exist (as a directory) or not yet; it is created only after the key opened. */
async function checkOutputDir(outputDir: string): Promise<void> {
  let stats;
  try {
    stats = await stat(outputDir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw new ExportError('OUTPUT_DIR_UNUSABLE', `cannot use ${outputDir} (${errnoCode(error) ?? 'error'})`, { cause: error });
  }
  if (!stats.isDirectory()) throw new ExportError('OUTPUT_DIR_UNUSABLE', `${outputDir} exists and is not a directory`);
}

async function createOutputDir(outputDir: string): Promise<void> {
  try {
    await mkdir(outputDir, { recursive: true });
  } catch (error) {
    throw new ExportError('OUTPUT_DIR_UNUSABLE', `cannot create ${outputDir} (${errnoCode(error) ?? 'error'})`, { cause: error });
  }
}

async function run(invocation: Invocation, signal: AbortSignal): Promise<number> {
  const backup = await readKeyBackup(invocation.backup);
  let reader: ExportReader | undefined;
  try {
    reader = await openExport(invocation.exportPath);
    const manifest = parseManifest(await reader.readManifest());
    await checkOutputDir(invocation.outputDir);

    const password = await readExistingPassword(invocation.passwordStdin, 'Password the backup file was made under: ');
    let privateKey;
    try {
      privateKey = unlockKeyBackup(backup, password);
    } catch (error) {
      if (error instanceof OfflineCryptoError && error.code === 'WRONG_PASSWORD') {
        console.error('Wrong password for this backup file (or the backup file is damaged). Nothing was recovered.');
        return EXIT.wrongPassword;
      }
      throw error;
    }
    await createOutputDir(invocation.outputDir);

    const title = manifest.folderTitle === undefined ? '' : ` of "${printablePath(manifest.folderTitle)}"`;
    const count = manifest.items.length;
    console.log(`Recovering ${count} file${count === 1 ? '' : 's'}${title} into ${invocation.outputDir}`);
    const startedAt = performance.now();
    const keys = exportKeys(privateKey, manifest);
    if (keys.teamSummary !== null) console.log(printablePath(keys.teamSummary));
    const totals = await recoverExport(keys.open, reader, manifest, {
      outputDir: invocation.outputDir,
      force: invocation.force,
      signal,
      progress: new ProgressLine(process.stderr),
      onRecovered: (item, bytes) => console.log(`recovered ${printablePath(item.displayPath)} (${formatBytes(bytes)})`),
      onFailed: (item, error) => console.error(`FAILED ${printablePath(item.displayPath)}: ${fileFailureReason(error)}`),
    });
    const milliseconds = performance.now() - startedAt;
    const rate = megabytesPerSecond(totals.bytes, milliseconds).toFixed(0);
    console.log(
      `Recovered ${totals.recovered} of ${totals.files} files: ${formatBytes(totals.bytes)} (${totals.bytes} bytes) in ${(milliseconds / 1000).toFixed(1)} s, ${rate} MB/s.`,
    );
    return totals.recovered === totals.files ? EXIT.ok : EXIT.someFailed;
  } finally {
    await reader?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = parseInvocation(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    if (error.message) console.error(`Error: ${error.message}\n`);
    console.error(USAGE);
    return error.message ? EXIT.unusable : EXIT.ok;
  }
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(new CliUsageError('Interrupted.')));
  try {
    return await run(invocation, interrupt.signal);
  } catch (error) {
    if (interrupt.signal.aborted) {
      console.error('\nInterrupted: the file being written was removed; files already recovered stay.');
      return EXIT.interrupted;
    }
    if (error instanceof ExportError || error instanceof CliUsageError) {
      console.error(`Error: ${error.message}`);
      return EXIT.unusable;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('Error:', error instanceof Error ? error.message : error);
    process.exit(EXIT.unusable);
  },
);
