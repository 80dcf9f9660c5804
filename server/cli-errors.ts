// A mistake in how the CLI was called (exit code 2), as opposed to a failed task (exit code 1).
export class CliUsageError extends Error {
  readonly code = 'CLI_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
