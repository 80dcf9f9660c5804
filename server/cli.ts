// Admin command line: `npm run admin -- <command> ...`. Uses the same configuration as the server
// (DATA_DIR, DATABASE_URL, ...) and is safe to run while the server runs.
import { pino } from 'pino';
import {
  checkExistingUser,
  checkNewUser,
  createUser,
  disableTwoFactor,
  resetPassword,
  UserAdminError,
} from './auth/user-admin.ts';
import { ActivityChainBrokenError, verifyActivityCommand } from './activity/verify-command.ts';
import { CliUsageError } from './cli-errors.ts';
import { readNewPassword } from './cli-password.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { createRepositories, type Repositories } from './db/repositories/index.ts';
import { writeExportDirectory } from './export/directory-export.ts';
import { ExportFolderNotFoundError } from './export/errors.ts';
import { planExport } from './export/export-plan.ts';
import { loadExportTeam } from './export/export-team.ts';
import { migrateBlobs } from './storage/migrate-blobs.ts';
import { openBlobStore, openDiskBlobStore, openS3BlobStore } from './storage/open-blob-store.ts';
import { parseCommandLine } from './cli-args.ts';
import { codedError } from '../contract/coded-error.ts';
import { ORG_ROLES, type OrgRole } from '../contract/organisation.ts';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-user <username> [--email <address>] [--role admin|member] [--password-stdin]
      Create a user. Prompts for the password twice, or reads one line from
      standard input with --password-stdin. --role sets the organisation role:
      the first account is always an organisation admin; later ones are members
      unless --role admin is given (admins invite, disable and enable accounts
      in the web app).
  reset-password <username> [--password-stdin]
      Set a new password, sign the user out everywhere and remove their passkeys
      (a reset is for a lost or taken-over account). The private key stays
      encrypted under the old password: the user restores it from the backup
      file (Profile, Restore from Backup) with the password of that backup.
  disable-2fa <username>
      Turn off two-factor authentication (for a lost authenticator).
  export-folder <folderId> <dir>
      Write the folder's encrypted files and a manifest into <dir> (new or
      empty), for recovery without the server (npm run recover).
  verify-activity <username> [--checkpoints <file>]...
      Check the user's activity log hash chain against the signed checkpoints in
      ACTIVITY_ANCHOR_FILE and in each file given (an activity export, a saved
      notification e-mail or webhook body); names the first entry that was
      changed, removed or reordered, the newest entries missing, or a tampered
      anchor line (exit status 1), or says it is intact.
  migrate-blobs
      Copy every file's blob from DATA_DIR/blobs into the S3 bucket configured
      with BLOB_STORE=s3 and S3_BUCKET, verifying each copy (size and SHA-256).

Environment: DATA_DIR, DATABASE_URL, ... as for the server (see docs/operations.md).`;

interface UserInvocation {
  command: 'create-user' | 'reset-password' | 'disable-2fa';
  username: string;
  email: string | undefined;
  role: OrgRole | undefined;
  passwordStdin: boolean;
}

interface ExportInvocation {
  command: 'export-folder';
  folderId: number;
  directory: string;
}

interface MigrateInvocation {
  command: 'migrate-blobs';
}

interface VerifyActivityInvocation {
  command: 'verify-activity';
  username: string;
  checkpointFiles: string[];
}

type Invocation = UserInvocation | ExportInvocation | MigrateInvocation | VerifyActivityInvocation;

const USER_COMMANDS = ['create-user', 'reset-password', 'disable-2fa'] as const;

function isUserCommand(command: string): command is UserInvocation['command'] {
  return (USER_COMMANDS as readonly string[]).includes(command);
}

function parseExportInvocation(positionals: string[], options: { email?: string; 'password-stdin'?: boolean }): ExportInvocation {
  const [folderId, directory, ...extra] = positionals;
  if (folderId === undefined || directory === undefined) throw new CliUsageError('export-folder needs a folder id and a directory.');
  if (!/^\d{1,15}$/.test(folderId) || Number(folderId) === 0) throw new CliUsageError(`Invalid folder id "${folderId}".`);
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
  if (options.email !== undefined || options['password-stdin']) throw new CliUsageError('export-folder takes no options.');
  return { command: 'export-folder', folderId: Number(folderId), directory };
}

function parseInvocation(argv: string[]): Invocation {
  const parsed = parseCommandLine(argv, {
    email: { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    checkpoints: { type: 'string', multiple: true },
    role: { type: 'string' },
  });
  const [command, username, ...extra] = parsed.positionals;
  if (parsed.values.help || command === 'help') throw new CliUsageError('');
  if (command === undefined) throw new CliUsageError('Missing command.');
  if (parsed.values.checkpoints !== undefined && command !== 'verify-activity') throw new CliUsageError('--checkpoints only applies to verify-activity.');
  if (command === 'export-folder') return parseExportInvocation(parsed.positionals.slice(1), parsed.values);
  if (command === 'migrate-blobs') {
    if (parsed.positionals.length > 1) throw new CliUsageError(`Unexpected argument "${parsed.positionals[1]}".`);
    if (parsed.values.email !== undefined || parsed.values['password-stdin']) throw new CliUsageError('migrate-blobs takes no options.');
    return { command: 'migrate-blobs' };
  }
  if (command === 'verify-activity') {
    if (username === undefined) throw new CliUsageError('verify-activity needs a username.');
    if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
    if (parsed.values.email !== undefined || parsed.values['password-stdin']) throw new CliUsageError('verify-activity takes no options.');
    return { command: 'verify-activity', username, checkpointFiles: parsed.values.checkpoints ?? [] };
  }
  if (!isUserCommand(command)) throw new CliUsageError(`Unknown command "${command}".`);
  if (username === undefined) throw new CliUsageError(`${command} needs a username.`);
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}".`);
  if (parsed.values.email !== undefined && command !== 'create-user') {
    throw new CliUsageError('--email only applies to create-user.');
  }
  const role = parsed.values.role;
  if (role !== undefined && command !== 'create-user') throw new CliUsageError('--role only applies to create-user.');
  if (role !== undefined && !(ORG_ROLES as readonly string[]).includes(role)) throw new CliUsageError(`Invalid role "${role}": use admin or member.`);
  return {
    command,
    username,
    email: parsed.values.email,
    role: role as OrgRole | undefined,
    passwordStdin: parsed.values['password-stdin'] === true,
  };
}

async function exportFolder(invocation: ExportInvocation, repos: Repositories, config: Config): Promise<string> {
  const folder = await repos.folders.findForOperator(invocation.folderId);
  if (!folder) throw new ExportFolderNotFoundError(invocation.folderId);
  const blobs = await openBlobStore(config);
  const records = await repos.files.listForFolder(folder.id);
  const plan = await planExport(blobs, folder, records, Date.now(), await loadExportTeam(repos, folder.id));
  const summary = await writeExportDirectory(invocation.directory, plan, blobs);
  const files = summary.files === 1 ? '1 file' : `${summary.files} files`;
  return `Exported folder ${folder.id} "${folder.title}" to ${invocation.directory}: ${files}, ${summary.bytes} bytes.`;
}

class MigrationError extends codedError('MIGRATION_INCOMPLETE') {}

async function migrate(repos: Repositories, config: Config): Promise<string> {
  if (config.blobStore.kind !== 's3') {
    throw new MigrationError('migrate-blobs copies into S3: set BLOB_STORE=s3, S3_BUCKET and the AWS variables of the target bucket.');
  }
  const source = await openDiskBlobStore(config.dataDir);
  const target = await openS3BlobStore(config.blobStore);
  try {
    const report = await migrateBlobs(repos, source, target, (line) => console.log(line));
    for (const failure of report.failed) console.error(`FAILED ${failure.key}: ${failure.reason}`);
    const summary = `${report.copied} copied, ${report.alreadyThere} already there, ${report.bytes} bytes, all verified`;
    if (report.failed.length > 0) {
      throw new MigrationError(`${report.failed.length} blobs not migrated (listed above); ${summary}. Do not switch to BLOB_STORE=s3 yet.`);
    }
    return `Migrated ${report.copied + report.alreadyThere} blobs from ${source.root} to S3 bucket "${config.blobStore.bucket}": ${summary}.`;
  } finally {
    target.client.destroy();
  }
}

async function run(invocation: Invocation, repos: Repositories, config: Config): Promise<string> {
  if (invocation.command === 'export-folder') return exportFolder(invocation, repos, config);
  if (invocation.command === 'migrate-blobs') return migrate(repos, config);
  if (invocation.command === 'verify-activity') return verifyActivityCommand(repos, config, invocation.username, invocation.checkpointFiles);
  const { command, username } = invocation;
  switch (command) {
    case 'create-user': {
      await checkNewUser(repos, username, invocation.email ?? null);
      const password = await readNewPassword(invocation.passwordStdin);
      const user = await createUser(repos, { username, password, email: invocation.email ?? null, now: Date.now(), orgRole: invocation.role });
      const role = user.orgRole === 'admin' ? 'organisation admin' : 'member';
      return `Created user "${user.username}" (${role}). Sign in at /login with this username and password.`;
    }
    case 'reset-password': {
      await checkExistingUser(repos, username);
      const password = await readNewPassword(invocation.passwordStdin);
      const user = await resetPassword(repos, username, password);
      return (
        `Password of "${user.username}" changed; their sessions were ended.\n` +
        `Passkeys removed: ${user.passkeysRemoved} (a reset ends every other way in; the user adds passkeys again in the profile).\n` +
        'The private key is still encrypted under the old password, which the new one cannot open: to decrypt files again, ' +
        'the user restores the key from the backup file (Profile, Restore from Backup) with the password the backup was made under, ' +
        'or generates a new key pair (files encrypted for the old key then need that backup).'
      );
    }
    case 'disable-2fa': {
      const user = await disableTwoFactor(repos, username);
      return `Two-factor authentication is now off for "${user.username}".`;
    }
  }
}

async function main(argv: string[]): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = parseInvocation(argv);
  } catch (error) {
    if (error instanceof CliUsageError) {
      if (error.message) console.error(`Error: ${error.message}\n`);
      console.error(USAGE);
      return error.message ? 2 : 0;
    }
    throw error;
  }

  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    console.log(await run(invocation, createRepositories(database.db), config));
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UserAdminError || error instanceof ConfigError || error instanceof MigrationError || error instanceof ActivityChainBrokenError) {
      console.error(`Error: ${error.message}`);
    }
    else if (error instanceof CliUsageError) console.error(`Error: ${error.message}`);
    else console.error('Error:', error instanceof Error ? error.message : error);
    process.exit(error instanceof CliUsageError ? 2 : 1);
  },
);
