// The command line of every Sealdrop command (server/cli.ts, server/recover.ts, cli/upload.ts,
// cli/fetch.ts): node's parseArgs with positionals allowed, its complaint about an unknown or
// malformed option turned into a CliUsageError (exit status 2 and a pointer to --help).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './cli-errors.ts';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export function parseCommandLine<const Options extends OptionsConfig>(argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}
