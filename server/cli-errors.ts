// A mistake in how the CLI was called (exit code 2), as opposed to a failed task (exit code 1).
import { codedError } from '../contract/coded-error.ts';

export class CliUsageError extends codedError('CLI_USAGE') {}
